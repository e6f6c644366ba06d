import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsString, registerDecorator, ValidateNested } from 'class-validator';
import { BooleanWords, References } from '../core/fields/field-rules.decorators';
import { RecordBodyInspector } from '../core/body/record-body-inspector';
import { createDatabase } from '../store/store.fixtures';
import { SqliteRecordStore } from '../store/sqlite-record.store';
import { RecordStore } from '../store/record-store';
import { FamilyDefinition } from './family-definition';
import { FamilyRegistry } from './family-registry';
import { RecordService } from './record.service';

function NeverAsync(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'neverAsync',
      target: target.constructor,
      propertyName: propertyName as string,
      async: true,
      validator: { validate: async () => false },
    });
}

class Inner {
  @NeverAsync()
  code: string;
}

class WithAsync {
  @ValidateNested()
  @Type(() => Inner)
  inner: Inner;
}

class Pointing {
  @IsString()
  @References('nowhere')
  target_id: string;
}

const store = { adoptValueIndex: async () => false } as unknown as RecordStore;
const family = (schema: new () => object, index = 'thing'): FamilyDefinition => ({
  path: index,
  index,
  resourceName: 'Thing',
  schema,
  auth: 'jwt',
});

describe('RecordService refuses to start on declarations it cannot honour', () => {
  it('an async constraint (class-validator would skip it and accept the record) stops the start, naming the field', () => {
    expect(() => new RecordService(store, family(WithAsync), new FamilyRegistry())).toThrow(
      /async validation \(inner\.code \(neverAsync\)\)/,
    );
  });

  it('a reference to an index no registered family uses stops the start, naming it', async () => {
    const service = new RecordService(store, family(Pointing), new FamilyRegistry());
    await expect(service.onModuleInit()).rejects.toThrow('Thing references the index "nowhere", but no registered family uses it');
  });

  it('two families on one index stop the start', () => {
    const families = new FamilyRegistry();
    new RecordService(store, family(Pointing, 'nowhere'), families);
    expect(() => new RecordService(store, family(Pointing, 'nowhere'), families)).toThrow('Two families use the index "nowhere"');
  });
});

describe('RecordService stores a new record as the text it was sent as, when nothing replaced it', () => {
  class Converted {
    @BooleanWords()
    enabled?: boolean;
  }

  /** Creates `text` as a body the service read, on a real SQLite store; answers each stored doc's text by id. */
  async function storedTexts(schema: new () => object, text: string): Promise<Record<string, string>> {
    const db = createDatabase();
    const service = new RecordService(new SqliteRecordStore(db), family(schema), new FamilyRegistry());
    await service.onModuleInit();
    const bytes = Buffer.from(text);
    const inspector = new RecordBodyInspector();
    inspector.push(bytes);
    const body = JSON.parse(text) as unknown;
    inspector.inspect(body, text, bytes);
    await service.create(undefined, body);
    const rows = db.prepare('SELECT id, doc FROM inventory_record ORDER BY seq').all() as { id: string; doc: string }[];
    db.close();
    return Object.fromEntries(rows.map((row) => [row.id, row.doc]));
  }

  it('keeps the spelling of a record it stores unchanged, and serializes one it completed or converted', async () => {
    const texts = await storedTexts(Converted, '[{"id":"a","n":1.0,"enabled":true},{"n":2.0},{"id":"c","n":3.0,"enabled":"yes"}]');
    const generated = Object.keys(texts).find((id) => !['a', 'c'].includes(id))!;
    expect(texts).toEqual({
      a: '{"id":"a","n":1.0,"enabled":true}',
      [generated]: `{"id":"${generated}","n":2}`,
      c: '{"id":"c","n":3,"enabled":true}',
    });
  });
});
