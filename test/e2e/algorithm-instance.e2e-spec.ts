import { describeRecordContract } from '../contract/record-contract';
import { jwtRequests, OpenApiReader } from '../support/family-requests';
import { createTestApp, TestApp } from '../support/test-app';
import { bearer } from '../support/test-credentials';
import { databaseKinds } from '../support/test-databases';

const catalog: [string, Record<string, unknown>][] = [
  ['catalog/algorithm', { id: 'ddos-predictor', parameters: [{ id: 'frequency', type: 'time-duration', example: '10s' }] }],
  ['catalog/algorithm', { id: 'atk-decision-maker' }],
];

describeRecordContract({
  path: 'instance/algorithm',
  resourceName: 'Algorithm instance',
  authorization: () => bearer(),
  prerequisites: () => catalog.map(([path, body]) => ({ path, body, authorization: () => bearer() })),
  valid: () => ({
    algorithm_catalog_id: 'ddos-predictor',
    description: 'DDoS predictor.',
    operations: [{ parameters: [{ id: 'frequency', value: '30s' }] }],
    parameters: [{ id: 'frequency', timestamp: '2021-03-01T10:00:00', value: { new: '30s', old: '10s' } }],
    endpoint: '10.0.0.3:5000',
  }),
  invalid: { operations: [{ parameters: [{ id: 'frequency' }, { value: 1 }] }] },
  invalidProblems: {
    algorithm_catalog_id: 'required',
    'operations.0.parameters.0.value': 'required',
    'operations.0.parameters.1.id': 'required',
  },
  change: { description: 'DDoS predictor, tuned' },
  invalidChange: { body: { operations: 'now' }, problems: { operations: 'must be an object or a list of objects' } },
});

describe.each(databaseKinds())('Algorithm instance specifics on %s', (kind) => {
  let t: TestApp;
  const api = jwtRequests(() => t.url);
  const instance = (id: string, extra: Record<string, unknown> = {}) => ({ id, algorithm_catalog_id: 'ddos-predictor', ...extra });

  beforeAll(async () => {
    t = await createTestApp(kind);
    await api.seed(catalog);
  });
  afterAll(async () => t?.close());

  it('refuses a missing catalog entry, naming it', async () => {
    const response = await api.create('instance/algorithm', instance('lost', { algorithm_catalog_id: 'cnit-ml' }));
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ algorithm_catalog_id: 'Algorithm catalog with id=cnit-ml not found' });
  });

  it('refuses changing the catalog entry (read-only), and passes a repeat', async () => {
    await api.seed([['instance/algorithm', instance('pinned')]]);
    const response = await api.update('instance/algorithm', { id: 'pinned', algorithm_catalog_id: 'atk-decision-maker' });
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ algorithm_catalog_id: 'read-only' });
    expect((await api.update('instance/algorithm', { id: 'pinned', algorithm_catalog_id: 'ddos-predictor' })).status).toBe(304);
  });

  it('accepts one operation object as well as a list, stored as sent', async () => {
    const record = instance('single-op', { operations: { parameters: [{ id: 'frequency', value: 30 }] } });
    expect((await api.create('instance/algorithm', record)).status).toBe(201);
    expect((await api.read('instance/algorithm', 'single-op')).text).toBe(JSON.stringify([record]));
  });

  it('replaces operations whole on update', async () => {
    await api.seed([
      [
        'instance/algorithm',
        instance('ops', { operations: [{ parameters: [{ id: 'frequency', value: '30s' }] }, { parameters: [{ id: 'x', value: 1 }] }] }),
      ],
    ]);
    const next = [{ parameters: [{ id: 'frequency', value: '1m' }] }];
    expect((await api.update('instance/algorithm', { id: 'ops', operations: next })).status).toBe(200);
    expect((await api.stored('instance/algorithm', 'ops')).operations).toEqual(next);
  });

  it('replaces an operations object with another object whole, not merging its parameters by id', async () => {
    await api.seed([
      [
        'instance/algorithm',
        instance('ops-object', {
          operations: {
            parameters: [
              { id: 'frequency', value: '30s' },
              { id: 'x', value: 1 },
            ],
          },
        }),
      ],
    ]);
    const next = { parameters: [{ id: 'frequency', value: '1m' }] };
    expect((await api.update('instance/algorithm', { id: 'ops-object', operations: next })).status).toBe(200);
    expect((await api.stored('instance/algorithm', 'ops-object')).operations).toEqual(next);
  });

  it('refuses repeated parameter ids inside an operation', async () => {
    const response = await api.create(
      'instance/algorithm',
      instance('twins', {
        operations: {
          parameters: [
            { id: 'a', value: 1 },
            { id: 'a', value: 2 },
          ],
        },
      }),
    );
    expect(response.status).toBe(406);
    expect(response.body[0].message).toEqual({ 'operations.parameters.1.id': 'duplicate id' });
  });

  it('documents the read-only reference and operations as one object or a list', async () => {
    const doc = await OpenApiReader.fetch(t.url);
    expect(doc.methods('/instance/algorithm')).toEqual(['delete', 'get', 'post', 'put']);
    expect(doc.methods('/instance/algorithm/{id}')).toEqual(['delete', 'get', 'post', 'put']);
    const post = doc.body('/instance/algorithm', 'post');
    expect(post.required).toEqual(['algorithm_catalog_id']);
    expect(doc.property(post, 'algorithm_catalog_id')).toMatchObject({
      type: 'string',
      readOnly: true,
      'x-references': 'algorithm-catalog',
    });
    const operations = doc.resolve(post.properties.operations);
    expect(operations.oneOf).toHaveLength(2);
    expect([...doc.items(doc.items(operations).properties.parameters).required].sort()).toEqual(['id', 'value']);
    expect(doc.body('/instance/algorithm', 'put').required ?? []).toEqual([]);
  });
});
