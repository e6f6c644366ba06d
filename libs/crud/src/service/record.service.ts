import { FieldPath, JsonObject } from '../core/query/query.types';
import { jsonEquals } from '../core/query/json-equality';
import { mergeRecordWithProblems } from '../core/merge/deep-merge';
import { generateRecordId, recordIdProblem } from '../core/ids/record-id';
import { assertRecordIdInPath } from '../core/ids/path-id';
import { ID_ALREADY_FOUND, ID_NOT_FOUND, ResourceMessages } from '../core/outcome/messages';
import { WriteOutcome } from '../core/outcome/write-outcome';
import { parseRecordQuery } from '../core/query/query-parser';
import { validateRecord } from '../core/validation/record-validator';
import { RecordProblems } from '../core/validation/record-problems';
import { RESERVED_KEY_PROBLEM, ValidationProblems } from '../core/validation/validation-messages';
import {
  InsertOutcome,
  JoinedRecords,
  MissingReference,
  NewRecord,
  RecordReference,
  RecordStore,
  UpdateWrite,
} from '../store/record-store';
import { RecordRules } from '../core/fields/record-rules';
import { FamilyRegistry } from './family-registry';
import { asyncConstraints } from '../core/validation/async-constraints';
import { SelectionSpec, StoredRow } from '../store/record-selection';
import { QueryBudget } from '../core/query/query-budget';
import { ValueIndex } from '../store/value-index';
import { LearnedValueIndex } from '../store/learned-index';
import { FamilyDefinition } from './family-definition';
import { writeItems } from './write-items';
import { isPlainObject } from '../core/query/field-path';
import { RecordNotFoundError } from './record-not-found.error';
import { projectRecord } from './record-projection';
import { sentTextsOf } from '../core/body/sent-texts';

export interface WriteResult {
  operation: 'create' | 'update' | 'delete';
  outcomes: WriteOutcome[];
}

/** A read's records page by page, or (`joined`) all of them as their documents joined by commas, in query order. */
export type ReadResult = PagedRead | { joined: string };

/** The first page of a read is fetched before answering, so "nothing matched" can still be a 404. */
export interface PagedRead {
  first: StoredRow[];
  rest: AsyncIterator<StoredRow[]>;
  project?: (doc: string) => string;
}

/** The behaviour of one family: docs/records.md, query-language.md, writes-and-merge.md and responses.md on top of a RecordStore. Knows no HTTP. */
export class RecordService {
  private readonly messages: ResourceMessages;
  private readonly valueIndex: ValueIndex;
  /** The declaration plus the paths learned from queries (see `LearnedPaths`). */
  readonly learnedIndex: LearnedValueIndex;
  private readonly rules: RecordRules;

  constructor(
    private readonly store: RecordStore,
    readonly family: FamilyDefinition,
    private readonly families: FamilyRegistry,
  ) {
    this.messages = new ResourceMessages(family.resourceName);
    this.valueIndex = ValueIndex.of(family.indexedPaths);
    this.learnedIndex = new LearnedValueIndex(store, family.index, this.valueIndex);
    this.rules = RecordRules.of(family.schema);
    const unsupported = asyncConstraints(family.schema);
    if (unsupported.length > 0) {
      throw new Error(
        `${family.resourceName} declares async validation (${unsupported.join(', ')}), which cannot run inside a write's transaction; ` +
          'declare a reference to another family with @References(index) instead',
      );
    }
    families.add(family);
  }

  /**
   * Nest calls this before the app serves, once every family is registered: a reference to an
   * index no family serves stops the start, and the stored value rows must match the declaration.
   */
  async onModuleInit(): Promise<void> {
    for (const index of this.rules.referencedIndexes) {
      if (!this.families.get(index)) {
        throw new Error(`${this.family.resourceName} references the index "${index}", but no registered family uses it`);
      }
    }
    await this.store.adoptValueIndex(this.family.index, this.valueIndex);
    await this.learnedIndex.start();
  }

  async create(pathId: string | undefined, body: unknown): Promise<WriteResult> {
    const items = this.itemsFor(pathId, body);
    const sent = sentTextsOf(body);
    const outcomes = new Array<WriteOutcome>(items.length);
    const accepted: { index: number; record: NewRecord }[] = [];
    const refusals = new Map<number, Refusal>();
    const idsInBatch = new Set<string>();
    items.forEach((item, index) => {
      const prepared = this.prepareNew(pathId, item, sent?.[index]);
      if ('problems' in prepared) {
        refusals.set(index, prepared);
      } else if (idsInBatch.has(prepared.id)) {
        outcomes[index] = new WriteOutcome(406, ID_ALREADY_FOUND);
      } else {
        idsInBatch.add(prepared.id);
        // The doc is the object the text parsed to only if nothing replaced it (RecordRules copies).
        if (prepared.doc === item && sent?.[index] !== undefined) prepared.text = sent[index];
        accepted.push({ index, record: prepared });
      }
    });
    const inserted = await this.store.insert(
      this.family.index,
      accepted.map((entry) => entry.record),
      this.valueIndex,
    );
    accepted.forEach(({ index, record }, position) => {
      outcomes[index] = this.insertOutcome(record.id, inserted[position]);
    });
    await this.answerRefusals(refusals, outcomes);
    return { operation: 'create', outcomes };
  }

  async update(pathId: string | undefined, body: unknown): Promise<WriteResult> {
    const items = this.itemsFor(pathId, body);
    const outcomes = new Array<WriteOutcome>(items.length);
    const targets: { index: number; id: string; patch: JsonObject }[] = [];
    const refusals = new Map<number, Refusal>();
    items.forEach((item, index) => {
      const target = this.updateTarget(pathId, item);
      if (target instanceof WriteOutcome) outcomes[index] = target;
      else targets.push({ index, ...target });
    });
    const missing = await this.store.update(
      this.family.index,
      targets.map((target) => target.id),
      (position, current) => {
        const { index, id, patch } = targets[position];
        const decision = this.decideUpdate(id, patch, current);
        // A store may decide again (a retried transaction): the last decision is the answer.
        refusals.delete(index);
        if ('problems' in decision) refusals.set(index, decision);
        else outcomes[index] = decision.outcome;
        return 'write' in decision ? decision.write : undefined;
      },
      this.valueIndex,
    );
    missing.forEach((refusal, position) => {
      if (refusal) outcomes[targets[position].index] = invalid(this.missingProblems(refusal));
    });
    await this.answerRefusals(refusals, outcomes);
    return { operation: 'update', outcomes };
  }

  async remove(pathId: string | undefined, queryBody: unknown, budget?: QueryBudget): Promise<WriteResult> {
    const { spec } = await this.selection(pathId, queryBody, false, budget);
    const ids = await this.store.delete(spec);
    if (ids.length === 0) throw this.notFound(pathId);
    return {
      operation: 'delete',
      outcomes: ids.map((id) => new WriteOutcome(205, this.messages.deleted(id))),
    };
  }

  async read(pathId: string | undefined, queryBody: unknown, budget?: QueryBudget): Promise<ReadResult> {
    const { spec, select } = await this.selection(pathId, queryBody, true, budget);
    const records = select ? this.store.read(spec) : await this.store.readWhole(spec);
    if (records instanceof JoinedRecords) {
      if (records.count === 0) throw this.notFound(pathId);
      return { joined: records.docs };
    }
    const pages = records[Symbol.asyncIterator]();
    const first = await pages.next();
    if (first.done) throw this.notFound(pathId);
    return {
      first: first.value,
      rest: pages,
      project: select ? (doc) => JSON.stringify(projectRecord(JSON.parse(doc) as JsonObject, select)) : undefined,
    };
  }

  private async selection(
    pathId: string | undefined,
    queryBody: unknown,
    reading: boolean,
    budget: QueryBudget | undefined,
  ): Promise<{ spec: SelectionSpec; select?: FieldPath[] }> {
    assertRecordIdInPath(pathId);
    // Patterns are compiled by the store's plan, between other requests (see QueryParseOptions).
    const { select, ...query } = parseRecordQuery(queryBody, { allowSelect: reading, compilePatterns: false });
    const valueIndex = await this.learnedIndex.whenBuilt(query.where, query.order, budget);
    return { spec: { family: this.family.index, valueIndex, id: pathId, ...query, budget }, select };
  }

  private itemsFor(pathId: string | undefined, body: unknown): unknown[] {
    const items = writeItems(body);
    if (pathId !== undefined && Array.isArray(body) && items.length > 0) {
      throw RecordProblems.at('id', 'a path id cannot be combined with a list of records');
    }
    return items;
  }

  /** `sentText`: the text `item` was parsed from, when known (`sentTextsOf`). */
  private prepareNew(pathId: string | undefined, item: unknown, sentText?: string): NewRecord | Refusal {
    if (!isPlainObject(item)) return { problems: { record: 'must be an object' } };
    const problems: ValidationProblems = {};
    const id = this.resolveId(pathId, item, problems) ?? generateRecordId();
    const sent = item.id === undefined ? { id, ...item } : item;
    if (sentText === undefined || mayHoldReservedKey(sentText)) reservedKeyProblems(sent, [], problems);
    if (this.rules.isEmpty) {
      Object.assign(problems, validateRecord(this.family.schema, sent));
      if (Object.keys(problems).length > 0) return { problems };
      return { id, doc: sent };
    }
    Object.assign(problems, this.rules.serverSetProblems(sent));
    const doc = this.rules.withDefaults(this.rules.convert(sent));
    Object.assign(problems, validateRecord(this.family.schema, doc));
    if (Object.keys(problems).length > 0) return { problems, requires: this.requiredRecords(doc) };
    const stored = this.rules.withoutWriteOnly(doc);
    return { id, doc: stored, requires: this.requiredRecords(stored) };
  }

  /** What the reference fields of `record` name, leaving out what `stored` already named at the same path. */
  private requiredRecords(record: JsonObject, stored?: JsonObject): RecordReference[] {
    return this.rules
      .references(record, stored)
      .flatMap((check) => check.ids.map((id) => ({ family: check.index, id, field: check.path })));
  }

  /**
   * Items refused for their own problems still name the records they point at that do not exist
   * (every problem of an item at once). A plain read, outside any write: these items write nothing.
   */
  private async answerRefusals(refusals: ReadonlyMap<number, Refusal>, outcomes: WriteOutcome[]): Promise<void> {
    const references = [...refusals.values()].flatMap((refusal) => refusal.requires ?? []);
    const missing = new Set(references.length > 0 ? await this.store.missingReferences(references) : []);
    for (const [index, refusal] of refusals) {
      const absent = (refusal.requires ?? []).filter((reference) => missing.has(reference));
      outcomes[index] = invalid(
        absent.length > 0 ? { ...this.missingProblems({ missing: absent }), ...refusal.problems } : refusal.problems,
      );
    }
  }

  private insertOutcome(id: string, inserted: InsertOutcome): WriteOutcome {
    if (inserted === 'inserted') return new WriteOutcome(201, this.messages.created(id));
    if (inserted === 'duplicate') return new WriteOutcome(406, ID_ALREADY_FOUND);
    return invalid(this.missingProblems(inserted));
  }

  /** `{"type_id": "Execution environment type with id=x not found"}`: the first missing record of each field. */
  private missingProblems(refusal: MissingReference): ValidationProblems {
    const problems: ValidationProblems = {};
    for (const reference of refusal.missing) {
      const field = reference.field ?? reference.family;
      const target = this.families.get(reference.family);
      problems[field] ??= new ResourceMessages(target?.resourceName ?? reference.family).notFound(reference.id);
    }
    return problems;
  }

  private updateTarget(pathId: string | undefined, item: unknown): { id: string; patch: JsonObject } | WriteOutcome {
    if (!isPlainObject(item)) return invalid({ record: 'must be an object' });
    const problems: ValidationProblems = {};
    const id = this.resolveId(pathId, item, problems);
    if (id === undefined && !problems.id) problems.id = 'required';
    if (id !== undefined && !this.rules.isEmpty) Object.assign(problems, this.rules.serverSetProblems(item));
    if (Object.keys(problems).length > 0 || id === undefined) return invalid(problems);
    const patch = { ...item };
    delete patch.id;
    return { id, patch };
  }

  /** The path id and a body id must agree; either one alone names the record. */
  private resolveId(pathId: string | undefined, item: JsonObject, problems: ValidationProblems): string | undefined {
    const bodyId = item.id;
    if (pathId !== undefined && bodyId !== undefined && bodyId !== pathId) {
      problems.id = 'must equal the id in the path';
      return undefined;
    }
    // `"id": null` is an id that is not a string (406), not an omitted one to generate.
    const id = bodyId === undefined ? pathId : bodyId;
    if (id === undefined) return undefined;
    const problem = recordIdProblem(id);
    if (problem) {
      problems.id = problem;
      return undefined;
    }
    return id as string;
  }

  private decideUpdate(
    id: string,
    patch: JsonObject,
    current: JsonObject | undefined,
  ): { outcome: WriteOutcome; write?: UpdateWrite } | Refusal {
    if (!current) return { outcome: new WriteOutcome(406, ID_NOT_FOUND) };
    const merge = mergeRecordWithProblems(current, patch, { replaced: this.rules.replacedOnUpdate });
    let merged = merge.merged;
    if (!this.rules.isEmpty) merged = this.rules.withDefaults(this.rules.convert(merged));
    // A read-only field an update removes is reported as read-only, the cause, rather than as required.
    const problems = {
      ...validateRecord(this.family.schema, merged),
      ...this.rules.readOnlyProblems(current, merged),
      ...merge.problems,
    };
    if (Object.keys(problems).length > 0) return { problems, requires: this.requiredRecords(merged, current) };
    merged = this.rules.withoutWriteOnly(merged);
    if (jsonEquals(merged, current)) return { outcome: new WriteOutcome(304, this.messages.notModified(id)) };
    return {
      outcome: new WriteOutcome(200, this.messages.updated(id)),
      write: { doc: merged, requires: this.requiredRecords(merged, current) },
    };
  }

  private notFound(pathId: string | undefined): RecordNotFoundError {
    return new RecordNotFoundError(this.messages.notFound(pathId));
  }
}

/** An item refused for its own problems, with the records it names (reported too if they are missing). */
interface Refusal {
  problems: ValidationProblems;
  requires?: RecordReference[];
}

function invalid(problems: ValidationProblems): WriteOutcome {
  return new WriteOutcome(406, problems);
}

/**
 * Whether a record's JSON text can spell a key that starts with `$`: only with a `$` or an escape.
 * Two searches for one character each (0.06–0.08 µs on a W4 record) instead of a walk of the
 * parsed record, which was 2 % of batch ingest's CPU (W4) for records that never hold one; a search
 * for the two characters `"$` took 0.65–0.71 µs, about what the walk costs.
 */
function mayHoldReservedKey(text: string): boolean {
  return text.includes('$') || text.includes('\\');
}

/**
 * `$` keys are reserved for merge directives, which mean nothing in a new record. The path is
 * joined only for a key refused: building a prefix string for every key and index walked cost
 * 1.1 % of batch ingest's profile (W4).
 */
function reservedKeyProblems(value: unknown, path: (string | number)[], problems: ValidationProblems): void {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      reservedKeyProblems(value[index], path, problems);
      path.pop();
    }
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (key.startsWith('$')) {
        problems[[...path, key].join('.')] = RESERVED_KEY_PROBLEM;
      } else {
        path.push(key);
        reservedKeyProblems(value[key], path, problems);
        path.pop();
      }
    }
  }
}
