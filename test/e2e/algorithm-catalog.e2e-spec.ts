import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

const PARAMETER_TYPES = 'integer, number, time-duration, string, choice, boolean, binary';

describeRecordContract({
  path: 'catalog/algorithm',
  resourceName: 'Algorithm catalog',
  authorization: () => bearer(),
  valid: () => ({
    description: 'DDoS predictor.',
    parameters: [
      { id: 'frequency', type: 'time-duration', description: 'Frequency to scan the network.', example: '10s' },
      { id: 'model', type: 'binary', encoding_scheme: 'base64', example: 'AAEC' },
      { id: 'protocols', type: 'choice', list: true, values: ['tcp', 'udp'], example: ['tcp'], min: 1, max: 2 },
    ],
    name: 'ddos',
    partner: 'cnit',
  }),
  invalid: { description: 1, parameters: [{ id: 'frequency', type: 'duration', list: 'yes', values: [1] }, { type: 'string' }] },
  invalidProblems: {
    description: 'must be a string',
    'parameters.0.type': `must be one of: ${PARAMETER_TYPES}`,
    'parameters.0.list': 'must be a boolean',
    'parameters.0.values': 'must be a string or a list of strings',
    'parameters.1.id': 'required',
  },
  change: { description: 'DDoS predictor, v2' },
  invalidChange: {
    body: { parameters: [{ id: 'frequency', type: 'bogus' }] },
    problems: { 'parameters.0.type': `must be one of: ${PARAMETER_TYPES}` },
  },
});

describe.each(databaseKinds())('Algorithm catalog specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('keeps examples of any JSON type and adds no defaults (list, encoding_scheme)', async () => {
    const record = {
      id: 'cnit-ml',
      name: 'CNIT ML',
      parameters: [
        { id: 'a', type: 'integer', example: 3, min: 0, max: 10 },
        { id: 'b', type: 'number', example: 0.5 },
        { id: 'c', type: 'boolean', example: true },
        { id: 'd', type: 'choice', list: true, values: ['x', 'y'], example: ['x', 'y'] },
        { id: 'e', type: 'binary' },
      ],
    };
    expect((await api.create('catalog/algorithm', record)).status).toBe(201);
    expect((await api.read('catalog/algorithm', 'cnit-ml')).text).toBe(JSON.stringify([record]));
  });

  it('requires parameter id and type, and refuses repeated parameter ids', async () => {
    const response = await api.create('catalog/algorithm', {
      id: 'bad',
      parameters: [{ id: 'a', type: 'string' }, { id: 'a', type: 'string' }, {}],
    });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({
      'parameters.1.id': 'duplicate id',
      'parameters.2.id': 'required',
      'parameters.2.type': 'required',
    });
  });

  it('merges parameters by id on update', async () => {
    await api.seed([
      ['catalog/algorithm', { id: 'ddos-predictor', parameters: [{ id: 'frequency', type: 'time-duration', example: '10s' }] }],
    ]);
    const response = await api.update('catalog/algorithm', {
      id: 'ddos-predictor',
      parameters: [
        { id: 'frequency', example: '30s' },
        { id: 'threshold', type: 'number' },
      ],
    });
    expect(response.status).toBe(200);
    expect((await api.stored('catalog/algorithm', 'ddos-predictor')).parameters).toEqual([
      { id: 'frequency', type: 'time-duration', example: '30s' },
      { id: 'threshold', type: 'number' },
    ]);
  });

  it('documents the parameters with their type enum', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/catalog/algorithm')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/catalog/algorithm/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/catalog/algorithm', 'post');
    expect(post.required ?? []).toEqual([]);
    const parameter = doc.items(doc.property(post, 'parameters'));
    expect([...parameter.required].sort()).toEqual(['id', 'type']);
    expect(doc.property(parameter, 'type').enum).toEqual(PARAMETER_TYPES.split(', '));
    expect(doc.property(parameter, 'list').type).toBe('boolean');
    expect(doc.property(parameter, 'encoding_scheme')).toMatchObject({ type: 'string', example: 'base64' });
    expect(doc.property(parameter, 'encoding_scheme').default).toBeUndefined();
  });
});
