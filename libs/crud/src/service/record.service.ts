import { FieldPath, JsonObject } from '../core/query/query.types';
import { jsonEquals } from '../core/query/json-equality';
import { mergeRecord } from '../core/merge/deep-merge';
import { generateRecordId, recordIdProblem } from '../core/ids/record-id';
import { ID_ALREADY_FOUND, ID_NOT_FOUND, ResourceMessages } from '../core/outcome/messages';
import { WriteOutcome } from '../core/outcome/write-outcome';
import { parseRecordQuery } from '../core/query/query-parser';
import { validateRecord } from '../core/validation/record-validator';
import { RecordProblems } from '../core/validation/record-problems';
import { ValidationProblems } from '../core/validation/validation-messages';
import { NewRecord, RecordStore } from '../store/record-store';
import { SelectionSpec, StoredRow } from '../store/record-selection';
import { ValueIndex } from '../store/value-index';
import { FamilyDefinition } from './family-definition';
import { writeItems } from './write-items';
import { isPlainObject } from '../core/query/field-path';
import { RecordNotFoundError } from './record-not-found.error';
import { projectRecord } from './record-projection';

export interface WriteResult {
  operation: 'create' | 'update' | 'delete';
  outcomes: WriteOutcome[];
}

/** The first page of a read is fetched before answering, so "nothing matched" can still be a 404. */
export interface ReadResult {
  first: StoredRow[];
  rest: AsyncIterator<StoredRow[]>;
  project?: (doc: string) => string;
}

/** The behaviour of one family: CONTRACT.md §3–§6 on top of a RecordStore. Knows no HTTP. */
export class RecordService {
  private readonly messages: ResourceMessages;
  private readonly valueIndex: ValueIndex;

  constructor(
    private readonly store: RecordStore,
    readonly family: FamilyDefinition,
  ) {
    this.messages = new ResourceMessages(family.resourceName);
    this.valueIndex = ValueIndex.of(family.indexedPaths);
  }

  /** Nest calls this before the app serves: the stored value rows must match the declaration first. */
  async onModuleInit(): Promise<void> {
    await this.store.adoptValueIndex(this.family.index, this.valueIndex);
  }

  async create(pathId: string | undefined, body: unknown): Promise<WriteResult> {
    const items = this.itemsFor(pathId, body);
    const outcomes: WriteOutcome[] = new Array(items.length);
    const accepted: { index: number; record: NewRecord }[] = [];
    const idsInBatch = new Set<string>();
    items.forEach((item, index) => {
      const prepared = this.prepareNew(pathId, item);
      if (prepared instanceof WriteOutcome) {
        outcomes[index] = prepared;
      } else if (idsInBatch.has(prepared.id)) {
        outcomes[index] = new WriteOutcome(406, ID_ALREADY_FOUND);
      } else {
        idsInBatch.add(prepared.id);
        accepted.push({ index, record: prepared });
      }
    });
    const inserted = await this.store.insert(
      this.family.index,
      accepted.map((entry) => entry.record),
      this.valueIndex,
    );
    accepted.forEach(({ index, record }, position) => {
      outcomes[index] = inserted[position]
        ? new WriteOutcome(201, this.messages.created(record.id))
        : new WriteOutcome(406, ID_ALREADY_FOUND);
    });
    return { operation: 'create', outcomes };
  }

  async update(pathId: string | undefined, body: unknown): Promise<WriteResult> {
    const items = this.itemsFor(pathId, body);
    const outcomes: WriteOutcome[] = new Array(items.length);
    const targets: { index: number; id: string; patch: JsonObject }[] = [];
    items.forEach((item, index) => {
      const target = this.updateTarget(pathId, item);
      if (target instanceof WriteOutcome) outcomes[index] = target;
      else targets.push({ index, ...target });
    });
    await this.store.update(
      this.family.index,
      targets.map((target) => target.id),
      (position, current) => {
        const { index, id, patch } = targets[position];
        const decision = this.decideUpdate(id, patch, current);
        outcomes[index] = decision.outcome;
        return decision.write;
      },
      this.valueIndex,
    );
    return { operation: 'update', outcomes };
  }

  async remove(pathId: string | undefined, queryBody: unknown): Promise<WriteResult> {
    const { spec } = this.selection(pathId, queryBody, false);
    const ids = await this.store.delete(spec);
    if (ids.length === 0) throw this.notFound(pathId);
    return {
      operation: 'delete',
      outcomes: ids.map((id) => new WriteOutcome(205, this.messages.deleted(id))),
    };
  }

  async read(pathId: string | undefined, queryBody: unknown): Promise<ReadResult> {
    const { spec, select } = this.selection(pathId, queryBody, true);
    const pages = this.store.read(spec)[Symbol.asyncIterator]();
    const first = await pages.next();
    if (first.done) throw this.notFound(pathId);
    return {
      first: first.value,
      rest: pages,
      project: select ? (doc) => JSON.stringify(projectRecord(JSON.parse(doc) as JsonObject, select)) : undefined,
    };
  }

  private selection(
    pathId: string | undefined,
    queryBody: unknown,
    reading: boolean,
  ): { spec: SelectionSpec; select?: FieldPath[] } {
    const { select, ...query } = parseRecordQuery(queryBody, { allowSelect: reading });
    return { spec: { family: this.family.index, valueIndex: this.valueIndex, id: pathId, ...query }, select };
  }

  private itemsFor(pathId: string | undefined, body: unknown): unknown[] {
    const items = writeItems(body);
    if (pathId !== undefined && Array.isArray(body) && items.length > 0) {
      throw RecordProblems.at('id', 'a path id cannot be combined with a list of records');
    }
    return items;
  }

  private prepareNew(pathId: string | undefined, item: unknown): NewRecord | WriteOutcome {
    if (!isPlainObject(item)) return invalid({ record: 'must be an object' });
    const problems: ValidationProblems = {};
    const id = this.resolveId(pathId, item, problems) ?? generateRecordId();
    const doc = item.id === undefined ? { id, ...item } : item;
    reservedKeyProblems(doc, '', problems);
    Object.assign(problems, validateRecord(this.family.schema, doc));
    if (Object.keys(problems).length > 0) return invalid(problems);
    return { id, doc };
  }

  private updateTarget(pathId: string | undefined, item: unknown): { id: string; patch: JsonObject } | WriteOutcome {
    if (!isPlainObject(item)) return invalid({ record: 'must be an object' });
    const problems: ValidationProblems = {};
    const id = this.resolveId(pathId, item, problems);
    if (id === undefined && !problems.id) problems.id = 'required';
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
    const id = bodyId ?? pathId;
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
  ): { outcome: WriteOutcome; write?: JsonObject } {
    if (!current) return { outcome: new WriteOutcome(406, ID_NOT_FOUND) };
    let merged: JsonObject;
    try {
      merged = mergeRecord(current, patch);
    } catch (error) {
      if (error instanceof RecordProblems) return { outcome: invalid(error.problems) };
      throw error;
    }
    const problems = validateRecord(this.family.schema, merged);
    if (problems) return { outcome: invalid(problems) };
    if (jsonEquals(merged, current)) return { outcome: new WriteOutcome(304, this.messages.notModified(id)) };
    return { outcome: new WriteOutcome(200, this.messages.updated(id)), write: merged };
  }

  private notFound(pathId: string | undefined): RecordNotFoundError {
    return new RecordNotFoundError(this.messages.notFound(pathId));
  }
}

function invalid(problems: ValidationProblems): WriteOutcome {
  return new WriteOutcome(406, problems);
}

/** `$` keys are reserved for merge directives, which mean nothing in a new record. */
function reservedKeyProblems(value: unknown, prefix: string, problems: ValidationProblems): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => reservedKeyProblems(item, `${prefix}${index}.`, problems));
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (key.startsWith('$')) problems[`${prefix}${key}`] = 'keys starting with $ are reserved';
      else reservedKeyProblems(value[key], `${prefix}${key}.`, problems);
    }
  }
}
