import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsString, registerDecorator, ValidateNested } from 'class-validator';
import { References } from '../core/fields/field-rules.decorators';
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
