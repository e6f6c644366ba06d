import 'reflect-metadata';

/**
 * What a schema says about a field beyond its shape (docs/relations.md): where it points, who may
 * write it, how it is converted and merged. Declared with these decorators on the schema class
 * (or a nested class) next to the class-validator checks; defaults are class initializers.
 * The library reads them once per schema (`fieldRulesOf`) and applies them on every write.
 */
export interface FieldRuleSet {
  /** The value (or every element, see `lines`) must name an existing record of this index. */
  references?: { index: string; lines: boolean };
  /** May be given on create; an update may repeat the stored value, not change it. */
  readOnly?: boolean;
  /** Only the service writes it: refused from clients on create and update. */
  serverSet?: boolean;
  /** Validated, then dropped: never stored. */
  writeOnly?: boolean;
  /** A list replaced whole on update, never merged by id (and not required to have unique ids). */
  replacedOnUpdate?: boolean;
  /** Stored as a JSON boolean from true/false, yes/no, y/n, on/off, t/f, 1/0 (any case), and 1/0. */
  booleanWords?: boolean;
  /** Stored as a number from an integer or a string of digits. */
  digitString?: boolean;
}

const FIELD_RULES = Symbol('inventory:field-rules');

/** The rules declared directly on one class, by property name (nested classes have their own). */
export function declaredFieldRules(target: object): ReadonlyMap<string, FieldRuleSet> {
  return (Reflect.getMetadata(FIELD_RULES, target) as Map<string, FieldRuleSet> | undefined) ?? new Map();
}

function rule(set: FieldRuleSet): PropertyDecorator {
  return (prototype, property) => {
    const target = prototype.constructor;
    const own = Reflect.getOwnMetadata(FIELD_RULES, target) as Map<string, FieldRuleSet> | undefined;
    const rules = own ?? new Map(declaredFieldRules(target));
    rules.set(String(property), { ...rules.get(String(property)), ...set });
    Reflect.defineMetadata(FIELD_RULES, rules, target);
  };
}

/**
 * The field names a record of the family stored under `index` (its `FamilyDefinition.index`).
 * On a list, every element must; with `lines`, a string value is split into lines and each line
 * must (the original's `agent_instance_ids` take either form).
 */
export function References(index: string, options: { lines?: boolean } = {}): PropertyDecorator {
  return rule({ references: { index, lines: options.lines ?? false } });
}

export function ReadOnly(): PropertyDecorator {
  return rule({ readOnly: true });
}

export function ServerSet(): PropertyDecorator {
  return rule({ serverSet: true });
}

export function WriteOnly(): PropertyDecorator {
  return rule({ writeOnly: true });
}

export function ReplacedOnUpdate(): PropertyDecorator {
  return rule({ replacedOnUpdate: true });
}

export function BooleanWords(): PropertyDecorator {
  return rule({ booleanWords: true });
}

export function DigitString(): PropertyDecorator {
  return rule({ digitString: true });
}
