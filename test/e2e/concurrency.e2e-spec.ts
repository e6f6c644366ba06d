import { Client } from 'pg';
import { createTestApp, TestApp } from '../support/test-app';
import { databaseKinds } from '../support/test-databases';
import { basic, bearer } from '../support/test-credentials';
import { countByStatus, JsonAnswer, sendJson } from '../support/json-http';

const send = (base: string, method: string, path: string, body?: unknown) =>
  sendJson(base, method, path, { body, authorization: bearer() });

/**
 * docs/writes-and-merge.md: concurrent writes on one service never lose a write (and concurrent reads,
 * which PostgreSQL answers together, each get their own records), and a duplicate create is
 * decided by the database (one 201, the rest 406 `Id already found`). Every request here is
 * real HTTP, all fired at once, so the store sees them interleaved.
 */

describe.each(databaseKinds())('concurrent writes over HTTP on %s', (kind) => {
  let t: TestApp;
  const everyAnswer: JsonAnswer[] = [];

  async function fire(requests: (() => Promise<JsonAnswer>)[]): Promise<JsonAnswer[]> {
    const answers = await Promise.all(requests.map((start) => start()));
    everyAnswer.push(...answers);
    return answers;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());

  it('50 concurrent creates of one id: exactly one 201, 49 × 406 "Id already found"', async () => {
    const answers = await fire(Array.from({ length: 50 }, (_, i) => () => send(t.url, 'POST', '/event', { id: 'same-id', attempt: i })));
    expect(countByStatus(answers)).toEqual({ 201: 1, 406: 49 });
    for (const answer of answers.filter((a) => a.status === 406)) {
      expect(answer.body).toEqual([expect.objectContaining({ code: 406, error: true, message: 'Id already found' })]);
    }
    const stored = await send(t.url, 'GET', '/event/same-id');
    expect(stored.status).toBe(200);
    expect(stored.body).toHaveLength(1);
    const winner = answers.findIndex((a) => a.status === 201);
    expect(stored.body[0]).toEqual({ id: 'same-id', attempt: winner });
  });

  it('300 concurrent creates of distinct ids: all 201 and all 300 are stored', async () => {
    const answers = await fire(
      Array.from({ length: 300 }, (_, i) => () => send(t.url, 'POST', '/event', { id: `distinct-${i}`, group: 'distinct', n: i })),
    );
    expect(countByStatus(answers)).toEqual({ 201: 300 });
    const stored = await send(t.url, 'GET', '/event', { select: ['id'], where: { equals: { target: 'group', expr: 'distinct' } } });
    expect(stored.status).toBe(200);
    expect(stored.body).toHaveLength(300);
    expect(new Set(stored.body.map((r: { id: string }) => r.id))).toEqual(new Set(Array.from({ length: 300 }, (_, i) => `distinct-${i}`)));
  });

  it('40 concurrent PUTs each adding a distinct action to one agent: all 200, none lost', async () => {
    const before = await send(t.url, 'GET', '/catalog/agent/firewall');
    expect(before.status).toBe(200);
    const demoActions: string[] = before.body[0].actions.map((action: { id: string }) => action.id);
    expect(demoActions).toHaveLength(10);
    const answers = await fire(
      Array.from(
        { length: 40 },
        (_, i) => () => send(t.url, 'PUT', '/catalog/agent/firewall', { actions: [{ id: `a${i}`, config: { cmd: 'c' } }] }),
      ),
    );
    expect(countByStatus(answers)).toEqual({ 200: 40 });
    const after = await send(t.url, 'GET', '/catalog/agent/firewall');
    const actionIds: string[] = after.body[0].actions.map((action: { id: string }) => action.id);
    expect(actionIds).toHaveLength(50);
    expect(actionIds.slice(0, 10)).toEqual(demoActions);
    expect(new Set(actionIds.slice(10))).toEqual(new Set(Array.from({ length: 40 }, (_, i) => `a${i}`)));
  });

  it('20 concurrent DELETEs of one record: exactly one 205, 19 × 404', async () => {
    expect((await send(t.url, 'POST', '/event', { id: 'doomed' })).status).toBe(201);
    const answers = await fire(Array.from({ length: 20 }, () => () => send(t.url, 'DELETE', '/event/doomed')));
    expect(countByStatus(answers)).toEqual({ 205: 1, 404: 19 });
    const deleted = answers.find((a) => a.status === 205)!;
    expect(deleted.body).toEqual([expect.objectContaining({ code: 200, error: false })]);
    for (const answer of answers.filter((a) => a.status === 404)) {
      expect(answer.body).toEqual([expect.objectContaining({ code: 404, error: true })]);
    }
    expect((await send(t.url, 'GET', '/event/doomed')).status).toBe(404);
  });

  it('60 concurrent reads by id across two families and missing ids: each answer is its own record', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `read-${i}`);
    expect(
      countByStatus(
        await fire([
          () =>
            send(
              t.url,
              'POST',
              '/event',
              ids.map((id) => ({ id, family: 'event' })),
            ),
        ]),
      ),
    ).toEqual({ 201: 1 });
    const linkTypes = await fire([
      () => sendJson(t.url, 'POST', '/type/network-link', { body: ids.map((id) => ({ id, name: `link ${id}` })), authorization: basic() }),
    ]);
    expect(countByStatus(linkTypes)).toEqual({ 201: 1 });
    const answers = await fire([
      ...ids.map((id) => () => send(t.url, 'GET', `/event/${id}`)),
      ...ids.map((id) => () => sendJson(t.url, 'GET', `/type/network-link/${id}`, { authorization: basic() })),
      ...ids.map((id) => () => send(t.url, 'GET', `/event/${id}-missing`)),
    ]);
    ids.forEach((id, i) => {
      expect(answers[i]).toMatchObject({ status: 200, body: [{ id, family: 'event' }] });
      expect(answers[20 + i]).toMatchObject({ status: 200, body: [{ id, name: `link ${id}` }] });
      expect(answers[20 + i].body[0].family).toBeUndefined();
      expect(answers[40 + i].status).toBe(404);
    });
  });

  it('60 concurrent filtered reads of one shape: each answer is its own records, in arrival order', async () => {
    const sources = Array.from({ length: 60 }, (_, i) => `10.9.0.${i}`);
    const created = await fire([
      () =>
        send(
          t.url,
          'POST',
          '/event',
          [0, 1, 2, 3, 4].flatMap((k) => sources.map((source, i) => ({ id: `filtered-${i}-${k}`, source, k }))),
        ),
    ]);
    expect(countByStatus(created)).toEqual({ 201: 1 });
    // PostgreSQL sends reads of one text that wait on another together (GroupedSelections).
    const queries = jest.spyOn(Client.prototype, 'query');
    try {
      const answers = await fire(
        sources.map((source) => () => send(t.url, 'GET', '/event', { where: { equals: { target: 'source', expr: source } } })),
      );
      answers.forEach((answer, i) => {
        expect(answer).toMatchObject({
          status: 200,
          body: [0, 1, 2, 3, 4].map((k) => ({ id: `filtered-${i}-${k}`, source: sources[i], k })),
        });
      });
      const shared = queries.mock.calls.filter(([config]) =>
        /\) UNION ALL \(SELECT 1 AS g, /.test((config as { text?: string }).text ?? ''),
      );
      expect(shared.length > 0).toBe(kind === 'postgres');
    } finally {
      queries.mockRestore();
    }
  });

  // Each read is one statement ending in its own ORDER BY and LIMIT (selection-plan's
  // `equalityRows`); shared, each keeps its own window.
  it('60 concurrent filtered reads of one shape with a window: each answer is its own window', async () => {
    const sources = Array.from({ length: 60 }, (_, i) => `10.9.0.${i}`);
    const queries = jest.spyOn(Client.prototype, 'query');
    try {
      const answers = await fire(
        sources.map(
          (source) => () =>
            send(t.url, 'GET', '/event', { where: { equals: { target: 'source', expr: source } }, limit: { from: 1, to: 3 } }),
        ),
      );
      answers.forEach((answer, i) => {
        expect(answer).toMatchObject({ status: 200, body: [1, 2, 3].map((k) => ({ id: `filtered-${i}-${k}`, k })) });
      });
      const shared = queries.mock.calls.filter(([config]) =>
        /LIMIT 4\) UNION ALL \(SELECT 1 AS g, /.test((config as { text?: string }).text ?? ''),
      );
      expect(shared.length > 0).toBe(kind === 'postgres');
    } finally {
      queries.mockRestore();
    }
  });

  // Clients polling one query: reads of one text with equal parameters that wait together share
  // one branch of their statement (GroupedSelections).
  it("60 concurrent reads of two queries, interleaved: each answer is its query's records, and PostgreSQL runs each query once a statement", async () => {
    const sources = ['10.9.0.7', '10.9.0.8'];
    const queries = jest.spyOn(Client.prototype, 'query');
    try {
      const answers = await fire(
        Array.from(
          { length: 60 },
          (_, i) => () => send(t.url, 'GET', '/event', { where: { equals: { target: 'source', expr: sources[i % 2] } } }),
        ),
      );
      answers.forEach((answer, i) => {
        expect(answer).toMatchObject({
          status: 200,
          body: [0, 1, 2, 3, 4].map((k) => ({ id: `filtered-${7 + (i % 2)}-${k}`, source: sources[i % 2], k })),
        });
      });
      const texts = queries.mock.calls.map(([config]) => (config as { text?: string }).text ?? '');
      // Whether reads share a statement at all depends on timing (a slow statement keeps its text's
      // reads apart for 10 s); that no statement has a third branch does not.
      expect(texts.filter((text) => text.includes('SELECT 2 AS g, '))).toEqual([]);
    } finally {
      queries.mockRestore();
    }
  });

  it('answered no request with a 5xx', () => {
    expect(everyAnswer.length).toBe(50 + 300 + 40 + 20 + 2 + 60 + 1 + 60 + 60 + 60);
    expect(everyAnswer.filter((a) => a.status >= 500)).toEqual([]);
  });
});
