import request from 'supertest';
import { createTestApp, TestApp, TestAppOptions } from '../support/test-app';
import { databaseKinds } from '../support/test-databases';
import { FamilyFixture } from './family-fixture';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let unique = 0;
const freshId = (label: string) => `${label}-${Date.now().toString(36)}-${++unique}`;

/**
 * Every generic rule of docs/routes.md, records.md, query-language.md, writes-and-merge.md and responses.md, over real HTTP, for one family on every database.
 * Family spec files call this with their fixture and add what is theirs alone.
 */
export function describeRecordContract(fixture: FamilyFixture, appOptions: TestAppOptions = {}): void {
  const lower = fixture.resourceName.charAt(0).toLowerCase() + fixture.resourceName.slice(1);

  describe.each(databaseKinds())(`${fixture.resourceName} contract on %s`, (kind) => {
    let t: TestApp;
    const base = `/${fixture.path}`;
    const http = () => request(t.url);
    const auth = () => fixture.authorization();
    const create = (body: unknown, id?: string) =>
      http()
        .post(id === undefined ? base : `${base}/${encodeURIComponent(id)}`)
        .set('Authorization', auth())
        .send(body as object);
    const update = (body: unknown, id?: string) =>
      http()
        .put(id === undefined ? base : `${base}/${encodeURIComponent(id)}`)
        .set('Authorization', auth())
        .send(body as object);
    const read = (id?: string, query?: unknown) => {
      const call = http()
        .get(id === undefined ? base : `${base}/${encodeURIComponent(id)}`)
        .set('Authorization', auth());
      return query === undefined ? call : call.send(query as object);
    };
    const remove = (id?: string, query?: unknown) => {
      const call = http()
        .delete(id === undefined ? base : `${base}/${encodeURIComponent(id)}`)
        .set('Authorization', auth());
      return query === undefined ? call : call.send(query as object);
    };
    const made = async (label: string) => {
      const id = freshId(label);
      const response = await create({ id, ...fixture.valid() });
      expect(response.status).toBe(201);
      return id;
    };

    beforeAll(async () => {
      t = await createTestApp(kind, appOptions);
      for (const prerequisite of fixture.prerequisites?.() ?? []) {
        const response = await http()
          .post(`/${prerequisite.path}`)
          .set('Authorization', prerequisite.authorization())
          .send(prerequisite.body);
        if (response.status !== 201) throw new Error(`prerequisite ${prerequisite.path} answered ${response.status}: ${response.text}`);
      }
    });
    afterAll(async () => t?.close());

    describe('create', () => {
      it('generates a time-ordered UUIDv7 id when none is sent and names it in the envelope', async () => {
        const first = await create(fixture.valid());
        const second = await create(fixture.valid());
        expect(first.status).toBe(201);
        const ids = [first, second].map((response) => {
          const match = /with id=(\S+) correctly created$/.exec(response.body[0].message);
          return match![1];
        });
        for (const id of ids) expect(id).toMatch(UUID_V7);
        expect(ids[0] < ids[1]).toBe(true);
        expect(first.body).toEqual([
          { status: 'Created', code: 201, error: false, message: `${fixture.resourceName} with id=${ids[0]} correctly created` },
        ]);
        expect(first.headers['content-type']).toMatch(/^application\/json/);
      });

      it('keeps every field, at any depth, exactly as sent', async () => {
        const id = freshId('exact');
        const record = {
          id,
          ...fixture.valid(),
          extra: { deep: { list: [1, 'two', { three: null }], flag: false, n: 1.5e-7 } },
          'spaced key': 'é✓',
        };
        expect((await create(record)).status).toBe(201);
        const response = await read(id);
        expect(response.status).toBe(200);
        expect(response.text).toBe(JSON.stringify([record]));
      });

      it('takes the id from the path', async () => {
        const id = freshId('path');
        const response = await create(fixture.valid(), id);
        expect(response.status).toBe(201);
        expect(response.body[0].message).toBe(`${fixture.resourceName} with id=${id} correctly created`);
        expect((await read(id)).body[0].id).toBe(id);
      });

      it('answers 406 "Id already found" for an existing id', async () => {
        const id = await made('dup');
        const response = await create({ id, ...fixture.valid() });
        expect(response.status).toBe(406);
        expect(response.body).toEqual([{ status: 'Not Acceptable', code: 406, error: true, message: 'Id already found' }]);
      });

      it('answers each batch item in order, writes the valid ones, and answers 207 when mixed', async () => {
        const existing = await made('batch-existing');
        const fresh = freshId('batch-new');
        const response = await create([
          { id: fresh, ...fixture.valid() },
          { id: existing, ...fixture.valid() },
          { id: fresh, ...fixture.valid() },
          fixture.invalid,
        ]);
        expect(response.status).toBe(207);
        expect(response.body.map((envelope: { code: number }) => envelope.code)).toEqual([201, 406, 406, 406]);
        expect(response.body[1].message).toBe('Id already found');
        expect(response.body[2].message).toBe('Id already found');
        expect(response.body[3].message).toEqual(fixture.invalidProblems);
        expect((await read(fresh)).status).toBe(200);
      });

      it('answers 201 for an all-created batch', async () => {
        const response = await create([fixture.valid(), fixture.valid()]);
        expect(response.status).toBe(201);
        expect(response.body).toHaveLength(2);
      });

      it('answers 204 without a body for an empty body or an empty list', async () => {
        for (const response of [await http().post(base).set('Authorization', auth()), await create([])]) {
          expect(response.status).toBe(204);
          expect(response.text).toBe('');
        }
      });

      it('reports every validation problem of a record at once', async () => {
        const response = await create(fixture.invalid);
        expect(response.status).toBe(406);
        expect(response.body).toEqual([{ status: 'Not Acceptable', code: 406, error: true, message: fixture.invalidProblems }]);
      });

      it.each([
        ['a/b', 'must not contain "/"'],
        ['_reserved', 'must not start with "_"'],
        ['x'.repeat(257), 'must be at most 256 characters'],
        ['tab\there', 'must not contain control characters'],
        ['', 'must not be empty'],
        [42, 'must be a string'],
      ])('refuses the id %j with 406', async (id, reason) => {
        const response = await create({ ...fixture.valid(), id });
        expect(response.status).toBe(406);
        expect(response.body[0].message).toEqual({ id: reason });
      });

      it('refuses a body id that differs from the path id, and a batch with a path id', async () => {
        const mismatch = await create({ id: 'other', ...fixture.valid() }, freshId('path'));
        expect(mismatch.status).toBe(406);
        expect(mismatch.body[0].message).toEqual({ id: 'must equal the id in the path' });
        const batch = await create([fixture.valid()], freshId('path'));
        expect(batch.status).toBe(406);
        expect(Object.keys(batch.body[0].message)).toEqual(['id']);
      });

      it('refuses $-keys in a new record, at any depth, each named by its path', async () => {
        const response = await create({ ...fixture.valid(), extra: { $patch: 'delete', list: [{ deep: { $x: 1 } }, { $y: 2 }] } });
        expect(response.status).toBe(406);
        expect(response.body[0].message).toEqual({
          'extra.$patch': 'keys starting with $ are reserved',
          'extra.list.0.deep.$x': 'keys starting with $ are reserved',
          'extra.list.1.$y': 'keys starting with $ are reserved',
        });
      });

      it('refuses a $-key spelled with an escape, in a batch whose other item is fine', async () => {
        // The service skips the walk for a record whose text holds neither `"$` nor a backslash.
        const text = `[${JSON.stringify(fixture.valid())},${JSON.stringify({ ...fixture.valid(), extra: { '\u0024x': 1 } }).replace('"$x"', '"\\u0024x"')}]`;
        expect(text).toContain('"\\u0024x"');
        const response = await http().post(base).set('Authorization', auth()).set('Content-Type', 'application/json').send(text);
        expect(response.status).toBe(207);
        expect(response.body[1].message).toEqual({ 'extra.$x': 'keys starting with $ are reserved' });
      });

      it('refuses an item that is not an object', async () => {
        const response = await create([fixture.valid(), 'text']);
        expect(response.status).toBe(207);
        expect(response.body[1]).toEqual({ status: 'Not Acceptable', code: 406, error: true, message: { record: 'must be an object' } });
      });
    });

    describe('read', () => {
      it('returns all records, a path id, or 404 for an unknown id', async () => {
        const id = await made('read');
        const all = await read();
        expect(all.status).toBe(200);
        expect(all.body.map((record: { id: string }) => record.id)).toContain(id);
        const one = await read(id);
        expect(one.body).toHaveLength(1);
        const missing = await read('no-such-id');
        expect(missing.status).toBe(404);
        expect(missing.body).toEqual([
          { status: 'Not Found', code: 404, error: true, message: `${fixture.resourceName} with id=no-such-id not found` },
        ]);
      });

      it('accepts a trailing slash', async () => {
        const id = await made('slash');
        expect((await http().get(`${base}/`).set('Authorization', auth())).status).toBe(200);
        expect((await http().get(`${base}/${id}/`).set('Authorization', auth())).body[0].id).toBe(id);
      });

      it('filters, projects and pages with the query body, or with ?q=', async () => {
        const id = await made('query');
        const query = { select: ['marker.tag'], where: { equals: { target: 'marker.tag', expr: id } } };
        expect((await update({ marker: { tag: id, other: 1 } }, id)).status).toBe(200);
        const byBody = await read(undefined, query);
        expect(byBody.status).toBe(200);
        expect(byBody.body).toEqual([{ id, marker: { tag: id } }]);
        const byParam = await http()
          .get(base)
          .query({ q: JSON.stringify(query) })
          .set('Authorization', auth());
        expect(byParam.body).toEqual(byBody.body);
      });

      it('answers 404 when nothing matches', async () => {
        const response = await read(undefined, { where: { equals: { target: 'id', expr: 'nothing-like-this' } } });
        expect(response.status).toBe(404);
        expect(response.body[0]).toMatchObject({ code: 404, error: true, message: `No ${lower} matches the request` });
      });

      it.each([
        [{ where: { near: { target: 'a', expr: 1 } } }, 'unknown operator "near"'],
        [{ where: { equals: { expr: 1 } } }, 'target'],
        [{ where: { equals: { target: 'a' } } }, 'expr is required'],
        [{ limit: { from: 5, to: 1 } }, 'limit.to'],
        [{ where: { in: { target: 'a', expr: Array.from({ length: 1001 }, (_, i) => i) } } }, '1000'],
        [{ where: { reg_exp: { target: 'a', expr: 'x'.repeat(257) } } }, '256'],
        [{ where: { and: Array.from({ length: 101 }, () => ({ exists: { target: 'a' } })) } }, '100 conditions'],
        [{ bogus: 1 }, 'unknown query field'],
      ])('answers 400 for the malformed query %j', async (query, words) => {
        const response = await read(undefined, query);
        expect(response.status).toBe(400);
        expect(response.body[0].code).toBe(400);
        expect(response.body[0].message).toContain(words);
      });

      it('answers 400 for a query both in the body and in ?q=, and for ?q= that is not JSON', async () => {
        const both = await http().get(base).query({ q: '{}' }).set('Authorization', auth()).send({});
        expect(both.status).toBe(400);
        const broken = await http().get(base).query({ q: '{nope' }).set('Authorization', auth());
        expect(broken.status).toBe(400);
      });
    });

    describe('update', () => {
      it('merges the body into the record and answers 200, then 304 when nothing changes', async () => {
        const id = await made('update');
        const changed = await update({ id, ...fixture.change });
        expect(changed.status).toBe(200);
        expect(changed.body).toEqual([
          { status: 'OK', code: 200, error: false, message: `${fixture.resourceName} with id=${id} correctly updated` },
        ]);
        const again = await update({ id, ...fixture.change });
        expect(again.status).toBe(304);
        expect(again.text).toBe('');
        const stored = (await read(id)).body[0];
        expect(stored).toMatchObject({ id, ...fixture.change });
      });

      it('names the 304 envelope inside a batch', async () => {
        const id = await made('update-batch');
        const other = await made('update-batch');
        const response = await update([
          { id, ...fixture.change },
          { id: other, extra: { n: 1 } },
        ]);
        expect(response.status).toBe(200);
        const again = await update([
          { id, ...fixture.change },
          { id: other, extra: { n: 2 } },
        ]);
        expect(again.status).toBe(200);
        expect(again.body[0]).toEqual({
          status: 'Not Modified',
          code: 304,
          error: false,
          message: `Update for ${lower} with id=${id} not necessary`,
        });
        expect(again.body[1].code).toBe(200);
      });

      it('removes a field set to null and merges nested objects', async () => {
        const id = await made('null');
        await update({ id, extra: { keep: 1, drop: 2 } });
        expect((await update({ id, extra: { drop: null, add: 3 } })).status).toBe(200);
        expect((await read(id)).body[0].extra).toEqual({ keep: 1, add: 3 });
      });

      it('answers 406 "Id not found" for an unknown id, and 207 next to a success', async () => {
        const missing = await update({ id: 'no-such-id', extra: 1 });
        expect(missing.status).toBe(406);
        expect(missing.body[0].message).toBe('Id not found');
        const id = await made('mixed');
        const mixed = await update([
          { id, extra: { v: 1 } },
          { id: 'no-such-id', extra: 1 },
        ]);
        expect(mixed.status).toBe(207);
        expect(mixed.body.map((envelope: { code: number }) => envelope.code)).toEqual([200, 406]);
      });

      it('requires an id, from the body or the path', async () => {
        const response = await update({ extra: 1 });
        expect(response.status).toBe(406);
        expect(response.body[0].message).toEqual({ id: 'required' });
        const id = await made('path-update');
        expect((await update({ extra: { p: 1 } }, id)).status).toBe(200);
      });

      it('answers 204 for an empty update', async () => {
        expect((await update([])).status).toBe(204);
      });

      if (fixture.invalidChange) {
        it('validates the merged record like a new one', async () => {
          const id = await made('invalid-merge');
          const response = await update({ id, ...fixture.invalidChange!.body });
          expect(response.status).toBe(406);
          expect(response.body[0].message).toEqual(fixture.invalidChange!.problems);
        });

        it('reports a patch it cannot merge together with what is invalid in the rest (every problem at once)', async () => {
          const id = await made('invalid-merge-and-key');
          const response = await update({ id, ...fixture.invalidChange!.body, merge_probe: { $set: 1, kept: true } });
          expect(response.status).toBe(406);
          expect(response.body[0].message).toEqual({
            ...fixture.invalidChange!.problems,
            'merge_probe.$set': 'keys starting with $ are reserved',
          });
          expect((await read(id)).body[0]).not.toHaveProperty('merge_probe');
        });
      }
    });

    describe('delete', () => {
      it('answers 205 with the envelope array in the body (code 200 inside), then 404', async () => {
        const id = await made('delete');
        const response = await remove(id);
        expect(response.status).toBe(205);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.text).toBe(
          JSON.stringify([
            { status: 'Reset Content', code: 200, error: false, message: `${fixture.resourceName} with id=${id} correctly deleted` },
          ]),
        );
        expect((await remove(id)).status).toBe(404);
        expect((await read(id)).status).toBe(404);
      });

      it('deletes every match of a query, one envelope each, in arrival order', async () => {
        const tag = freshId('tag');
        const ids = [await made('q1'), await made('q2'), await made('q3')];
        for (const id of ids.slice(0, 2)) await update({ id, marker: { tag } });
        const response = await remove(undefined, { where: { equals: { target: 'marker.tag', expr: tag } } });
        expect(response.status).toBe(205);
        expect(response.body.map((envelope: { message: string }) => envelope.message)).toEqual(
          ids.slice(0, 2).map((id) => `${fixture.resourceName} with id=${id} correctly deleted`),
        );
        expect((await read(ids[2])).status).toBe(200);
      });

      it('refuses select in a delete query', async () => {
        expect((await remove(undefined, { select: ['id'] })).status).toBe(400);
      });

      it('deletes the whole family without a query, and nothing of other families', async () => {
        await made('all');
        const response = await remove();
        expect(response.status).toBe(205);
        expect(response.body.length).toBeGreaterThan(0);
        expect((await read()).status).toBe(404);
        expect((await remove()).status).toBe(404);
      });
    });

    describe('HTTP rules', () => {
      it('answers 405 with Allow for another method', async () => {
        const response = await http().patch(base).set('Authorization', auth());
        expect(response.status).toBe(405);
        expect(response.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE');
        expect(response.body[0]).toMatchObject({ status: 'Method Not Allowed', code: 405, error: true });
      });

      it('answers 415 for a body that is not JSON', async () => {
        const response = await http().post(base).set('Authorization', auth()).set('Content-Type', 'text/plain').send('id=1');
        expect(response.status).toBe(415);
        expect(response.body[0]).toMatchObject({ code: 415, error: true });
      });

      it('accepts application/*+json bodies', async () => {
        const response = await http()
          .post(base)
          .set('Authorization', auth())
          .set('Content-Type', 'application/vnd.inventory+json')
          .send(JSON.stringify(fixture.valid()));
        expect(response.status).toBe(201);
      });

      it('answers 400 for broken JSON, prototype keys and nesting past 32', async () => {
        const send = (text: string) => http().post(base).set('Authorization', auth()).set('Content-Type', 'application/json').send(text);
        expect((await send('{"id": ')).status).toBe(400);
        const proto = await send(`{"a": {"__proto__": {"polluted": true}}}`);
        expect(proto.status).toBe(400);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect((await send(`{"constructor": {"prototype": {}}}`)).status).toBe(400);
        // The record object is level 1: 32 levels pass, 33 do not.
        expect((await send('{"a":'.repeat(33) + '1' + '}'.repeat(33))).status).toBe(400);
        expect((await send('{"a":'.repeat(32) + '1' + '}'.repeat(32))).status).not.toBe(400);
      });

      it('answers 404 with an envelope for an unknown route', async () => {
        const response = await http().get(`${base}/a/b/c`).set('Authorization', auth());
        expect(response.status).toBe(404);
        expect(response.body[0]).toMatchObject({ code: 404, error: true });
      });
    });
  });
}
