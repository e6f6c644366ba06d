import { ID_ALREADY_FOUND, ID_NOT_FOUND, ResourceMessages } from './messages';
import { answerStatus, envelope, reasonPhrase, WriteOperation, WriteOutcome } from './write-outcome';

const outcomes = (...statuses: number[]) => statuses.map((status) => new WriteOutcome(status, `m${status}`));

describe('envelope', () => {
  it('201 created', () => {
    expect(envelope(201, 'Event with id=e1 correctly created')).toEqual({
      status: 'Created',
      code: 201,
      error: false,
      message: 'Event with id=e1 correctly created',
    });
  });

  it('205 carries code 200 with status "Reset Content"', () => {
    expect(envelope(205, 'Event with id=e1 correctly deleted')).toEqual({
      status: 'Reset Content',
      code: 200,
      error: false,
      message: 'Event with id=e1 correctly deleted',
    });
  });

  it('304 is not an error', () => {
    expect(envelope(304, 'x')).toEqual({ status: 'Not Modified', code: 304, error: false, message: 'x' });
  });

  it('406 is an error and may carry an object message', () => {
    expect(envelope(406, { 'parameters.0.type': 'required' })).toEqual({
      status: 'Not Acceptable',
      code: 406,
      error: true,
      message: { 'parameters.0.type': 'required' },
    });
  });

  it.each([
    [200, 'OK', false],
    [204, 'No Content', false],
    [207, 'Multi-Status', false],
    [400, 'Bad Request', true],
    [401, 'Unauthorized', true],
    [404, 'Not Found', true],
    [405, 'Method Not Allowed', true],
    [413, 'Payload Too Large', true],
    [415, 'Unsupported Media Type', true],
    [422, 'Unprocessable Entity', true],
    [500, 'Internal Server Error', true],
    [503, 'Service Unavailable', true],
  ])('%i -> %s, error %p', (status, phrase, error) => {
    expect(envelope(status, 'm')).toEqual({ status: phrase, code: status, error, message: 'm' });
  });

  it('an unknown status still has a phrase', () => {
    expect(reasonPhrase(599)).toBe('Unknown');
  });

  it('WriteOutcome: succeeded below 400, and its envelope', () => {
    expect(new WriteOutcome(304, 'same').succeeded).toBe(true);
    expect(new WriteOutcome(399, 'x').succeeded).toBe(true);
    expect(new WriteOutcome(406, 'no').succeeded).toBe(false);
    expect(new WriteOutcome(205, 'gone').toEnvelope()).toEqual({ status: 'Reset Content', code: 200, error: false, message: 'gone' });
  });
});

describe('answerStatus', () => {
  it('empty -> 204', () => {
    for (const operation of ['create', 'update', 'delete'] as WriteOperation[]) expect(answerStatus(operation, [])).toBe(204);
  });

  it('a uniform code is the answer code', () => {
    expect(answerStatus('create', outcomes(201))).toBe(201);
    expect(answerStatus('create', outcomes(201, 201, 201))).toBe(201);
    expect(answerStatus('create', outcomes(406, 406))).toBe(406);
    expect(answerStatus('update', outcomes(304, 304))).toBe(304);
    expect(answerStatus('update', outcomes(406))).toBe(406);
    expect(answerStatus('delete', outcomes(205, 205))).toBe(205);
    expect(answerStatus('create', outcomes(422, 422))).toBe(422);
  });

  it('all successful but mixed -> 201 for create, 200 for update', () => {
    expect(answerStatus('update', outcomes(200, 304))).toBe(200);
    expect(answerStatus('update', outcomes(304, 200, 304))).toBe(200);
    expect(answerStatus('create', outcomes(201, 304))).toBe(201);
  });

  it('any failure among mixed codes -> 207', () => {
    expect(answerStatus('create', outcomes(201, 406))).toBe(207);
    expect(answerStatus('create', outcomes(406, 201))).toBe(207);
    expect(answerStatus('update', outcomes(200, 304, 406))).toBe(207);
    expect(answerStatus('update', outcomes(406, 422))).toBe(207);
    expect(answerStatus('update', outcomes(304, 406))).toBe(207);
  });
});

describe('ResourceMessages (CONTRACT §6)', () => {
  const networkLinkType = new ResourceMessages('Network link type');
  const agentCatalog = new ResourceMessages('Agent catalog');
  const event = new ResourceMessages('Event');

  it('created / updated / deleted', () => {
    expect(networkLinkType.created('p2p')).toBe('Network link type with id=p2p correctly created');
    expect(networkLinkType.updated('p2p')).toBe('Network link type with id=p2p correctly updated');
    expect(networkLinkType.deleted('p2p')).toBe('Network link type with id=p2p correctly deleted');
    expect(agentCatalog.created('firewall')).toBe('Agent catalog with id=firewall correctly created');
    expect(event.deleted('e-1')).toBe('Event with id=e-1 correctly deleted');
  });

  it('not necessary: the resource lower-cased mid-sentence', () => {
    expect(networkLinkType.notModified('p2p')).toBe('Update for network link type with id=p2p not necessary');
    expect(agentCatalog.notModified('nprobe')).toBe('Update for agent catalog with id=nprobe not necessary');
    expect(event.notModified('x')).toBe('Update for event with id=x not necessary');
  });

  it('id texts', () => {
    expect(ID_ALREADY_FOUND).toBe('Id already found');
    expect(ID_NOT_FOUND).toBe('Id not found');
  });
});
