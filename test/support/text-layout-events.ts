import { parseRecordQuery, RecordStore, SelectionSpec, ValueIndex } from '@inventory/crud';

/**
 * What the migration suites that rebuild a value table write before it: thirty events, as the
 * layout before path keys held them, each with its value rows (family and path in every row).
 */
export const LAYOUT_INDEX = ValueIndex.of(['source', 'tags']);
export const LAYOUT_SOURCES = ['10.0.0.0', '10.0.0.1', '10.0.0.2'];

export interface LayoutEvent {
  doc: { id: string; source: string; tags: string[]; size: number };
  /** Its value rows under `LAYOUT_INDEX`, as [path, text]. */
  values: [string, string][];
}

export function layoutEvents(): LayoutEvent[] {
  return Array.from({ length: 30 }, (_, n) => {
    const doc = { id: `e${n}`, source: LAYOUT_SOURCES[n % 3], tags: ['a', `t${n}`], size: n };
    return {
      doc,
      values: [
        ['source', doc.source],
        ['tags', 'a'],
        ['tags', `t${n}`],
      ],
    };
  });
}

/** What a path-key migration gives `inventory_value_path`, in key order: the paths in the value rows' order. */
export const LAYOUT_PATH_KEYS = [
  { family: 'event', path: 'source' },
  { family: 'event', path: 'tags' },
];

/** Each of `LAYOUT_SOURCES` with the ids of the events holding it, sorted: what a filter on it must answer. */
export const LAYOUT_ANSWERS: [string, string[]][] = LAYOUT_SOURCES.map((source, n) => [
  source,
  Array.from({ length: 10 }, (_, k) => `e${3 * k + n}`).sort(),
]);

/** The ids of the events whose `source` is `source`, as `store` answers the filter, sorted. */
export async function idsWithSource(store: RecordStore, source: string): Promise<string[]> {
  const ids: string[] = [];
  const { where } = parseRecordQuery({ where: { equals: { target: 'source', expr: source } } }, { allowSelect: false });
  const spec: SelectionSpec = { family: 'event', where, order: [], offset: 0, valueIndex: LAYOUT_INDEX };
  for await (const page of store.read(spec)) ids.push(...page.map((row) => row.id));
  return ids.sort();
}
