import { parseFieldPath } from '../core/query/field-path';
import { QueryError } from '../core/query/query-error';
import { FieldPath } from '../core/query/query.types';

/**
 * Longer paths are not indexed, which keeps every index entry inside PostgreSQL's B-tree row
 * limit; a query on such a path is answered by the in-memory evaluator instead.
 */
export const MAX_INDEXED_PATH_LENGTH = 256;

const RESERVED_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** How a family's declaration is kept in `inventory_setting` when it indexes every path. */
const EVERY_PATH_SETTING = '*';

/**
 * Which paths of a family's records have rows in the value index. Writing those rows is most of
 * the cost of an insert, so a high-volume family declares the few paths it is filtered on; every
 * other path is still queryable, by the in-memory evaluator and never by SQL.
 *
 * A declared path holds its whole subtree: declaring `host` indexes `host`, `host.name` and
 * anything below, as the indexer always did for an object; declaring `host.name` alone indexes
 * neither `host` nor `host.ip`. Without a declaration every path is held.
 */
export class ValueIndex {
  static readonly EVERY_PATH = new ValueIndex(undefined);

  /** Strict ancestors of declared paths: the indexer must walk through them, not write them. */
  private readonly ancestors?: ReadonlySet<string>;

  private constructor(private readonly declared: ReadonlySet<string> | undefined) {
    if (!declared) return;
    const ancestors = new Set<string>();
    for (const path of declared) {
      for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) ancestors.add(path.slice(0, dot));
    }
    this.ancestors = ancestors;
  }

  /** A family's `indexedPaths` (dotted, as in queries); undefined means every path. */
  static of(indexedPaths: readonly string[] | undefined): ValueIndex {
    if (indexedPaths === undefined) return ValueIndex.EVERY_PATH;
    for (const path of indexedPaths) {
      try {
        parseFieldPath(path, 'an indexed path');
        // No record can hold such a key (bodies refuse it), so declaring one is a mistake in code.
        const reserved = path.split('.').find((segment) => RESERVED_SEGMENTS.has(segment));
        if (reserved) throw new QueryError(`an indexed path uses the reserved name "${reserved}"`);
      } catch (error) {
        // A family's declaration is code: a bad one must stop the start, not answer 400 later.
        if (error instanceof QueryError) throw new Error(`indexedPaths: ${error.message}`);
        throw error;
      }
    }
    return new ValueIndex(new Set(indexedPaths));
  }

  /** The inverse of `toSetting`; no setting means data written before declarations existed, which indexed every path. */
  static fromSetting(setting: string | undefined): ValueIndex {
    if (setting === undefined || setting === EVERY_PATH_SETTING) return ValueIndex.EVERY_PATH;
    return ValueIndex.of(JSON.parse(setting) as string[]);
  }

  toSetting(): string {
    return this.declared ? JSON.stringify([...this.declared].sort()) : EVERY_PATH_SETTING;
  }

  /** Whether values at `path` have rows, given whether its parent's values have them. */
  holds(path: string, parentHeld: boolean): boolean {
    return isIndexedPath(path) && (parentHeld || !this.declared || this.declared.has(path));
  }

  /** Whether a path that is not held may still have held paths below it. */
  leadsTo(path: string): boolean {
    return isIndexedPath(path) && this.ancestors !== undefined && this.ancestors.has(path);
  }

  /** Whether SQL may answer a condition on `path`: every value at it has its row. */
  covers(path: FieldPath): boolean {
    if (!isIndexedPath(path.join('.'))) return false;
    if (!this.declared) return true;
    for (let length = 1; length <= path.length; length++) {
      if (this.declared.has(path.slice(0, length).join('.'))) return true;
    }
    return false;
  }

  /**
   * This index with `paths` held too (learned paths, see `LearnedPaths`); every path held
   * already answers this index itself, so the common case allocates nothing.
   */
  withPaths(paths: readonly string[]): ValueIndex {
    if (!this.declared || paths.every((path) => this.covers(path.split('.')))) return this;
    return new ValueIndex(new Set([...this.declared, ...paths]));
  }

  /** Whether every path `other` holds is held here too, so rows written under this index serve `other`. */
  includes(other: ValueIndex): boolean {
    if (!this.declared) return true;
    if (!other.declared) return false;
    return [...other.declared].every((path) => this.covers(path.split('.')));
  }
}

/**
 * The `inventory_setting` row naming the paths a family's stored value rows are complete for.
 * Rows are written under the declaration of the code running at the time, so when a deployment
 * declares a path the stored rows were not written for, records written before lack its rows
 * and SQL would miss them: `RecordStore.adoptValueIndex` then rebuilds the family's rows at
 * start-up. Declaring fewer paths needs no rebuild: rows for paths no longer declared are never
 * consulted (SQL only ever asks about declared paths), so they are harmless. No row means the
 * data predates declarations, when every path was indexed.
 */
export function valueIndexSettingName(family: string): string {
  return `value_index:${family}`;
}

function isIndexedPath(path: string): boolean {
  return path.length <= MAX_INDEXED_PATH_LENGTH;
}

/**
 * Paths a family did not declare but that clients filter or order on: the first query on such a
 * path adds it (`learnablePath`, up to `MAX_LEARNED_PATHS` per family), and from then on every
 * write, in any process, writes its value rows (each write reads this setting inside its own
 * transaction). Its rows for records written before are built in the background (`building`);
 * once they are complete it is `ready` and queries use it. Kept in the `inventory_setting` row
 * `learnedPathsSettingName(family)`, so it survives restarts and the start-up's
 * `adoptValueIndex` neither drops it nor rebuilds it.
 */
export interface LearnedPaths {
  building: readonly string[];
  ready: readonly string[];
}

/** A cap per family, so that queries on ever new paths cannot make ingest arbitrarily slow; past it, the in-memory scan answers. */
export const MAX_LEARNED_PATHS = 32;

export const NO_LEARNED_PATHS: LearnedPaths = { building: [], ready: [] };

export function learnedPathsSettingName(family: string): string {
  return `value_index_learned:${family}`;
}

export function parseLearnedPaths(setting: string | null | undefined): LearnedPaths {
  if (!setting) return NO_LEARNED_PATHS;
  const parsed = JSON.parse(setting) as Partial<LearnedPaths>;
  return { building: parsed.building ?? [], ready: parsed.ready ?? [] };
}

export function learnedPathsSetting(learned: LearnedPaths): string {
  return JSON.stringify(sortedLearned(learned.building, learned.ready));
}

/** `learned` with `path` added, building; sorted like the stored setting, so a store answers the same before and after reading it back. */
export function withPathBuilding(learned: LearnedPaths, path: string): LearnedPaths {
  return sortedLearned([...learned.building, path], learned.ready);
}

/** `learned` with `path` moved from building to ready; sorted, so the order in which builds end does not show. */
export function withPathReady(learned: LearnedPaths, path: string): LearnedPaths {
  return sortedLearned(
    learned.building.filter((p) => p !== path),
    [...learned.ready, path],
  );
}

function sortedLearned(building: readonly string[], ready: readonly string[]): LearnedPaths {
  return { building: [...building].sort(), ready: [...ready].sort() };
}

export function allLearned(learned: LearnedPaths): string[] {
  return [...learned.building, ...learned.ready];
}

/**
 * The index each family's writes use: its declaration plus the learned paths of the setting the
 * write has just read inside its transaction (the store's job: one primary-key read), made again
 * only when the declaration or the setting changed. One per store, shared by its writes.
 */
export class WriteIndexes {
  private readonly byFamily = new Map<string, { setting: string | undefined; base: ValueIndex; index: ValueIndex }>();

  of(family: string, base: ValueIndex, setting: string | undefined): ValueIndex {
    const cached = this.byFamily.get(family);
    if (cached && cached.setting === setting && cached.base === base) return cached.index;
    const index = base.withPaths(allLearned(parseLearnedPaths(setting)));
    this.byFamily.set(family, { setting, base, index });
    return index;
  }

  /** The setting a write of `family` under `base` last read, and the index it made; undefined if none did. */
  lastRead(family: string, base: ValueIndex): { setting: string | undefined; index: ValueIndex } | undefined {
    const cached = this.byFamily.get(family);
    return cached && cached.base === base ? cached : undefined;
  }
}

/** The dotted path to learn for a query on `path`, if it may be learned: a valid, indexable path that is not the record id. */
export function learnablePath(path: FieldPath): string | undefined {
  if (path.length === 1 && path[0] === 'id') return undefined;
  const dotted = path.join('.');
  if (!isIndexedPath(dotted) || path.some((segment) => segment.includes('.') || RESERVED_SEGMENTS.has(segment))) return undefined;
  try {
    ValueIndex.of([dotted]);
    return dotted;
  } catch {
    return undefined;
  }
}
