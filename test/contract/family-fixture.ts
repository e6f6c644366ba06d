/** What the generic contract suite needs to know about one family. */
export interface FamilyFixture {
  /** Base route without slashes, e.g. `type/network-link`. */
  path: string;
  resourceName: string;
  /** A valid Authorization header for the family's scheme. */
  authorization: () => string;
  /** A valid new record without `id`, including additional data at some depth. */
  valid: () => Record<string, unknown>;
  /** A record that fails validation, and the exact 406 message map it must produce. */
  invalid: Record<string, unknown>;
  invalidProblems: Record<string, string>;
  /** A valid update body (without id) that changes a record made from `valid()`. */
  change: Record<string, unknown>;
  /** An update that merges but leaves the merged record invalid, and its 406 map. */
  invalidChange?: { body: Record<string, unknown>; problems: Record<string, string> };
  /**
   * Records of other families that `valid()` points at, created over HTTP in order once the app
   * has started (e.g. an exec-env type before exec-envs). Each must answer 201.
   */
  prerequisites?: () => Prerequisite[];
}

/** One record of another family, created before the suite runs. */
export interface Prerequisite {
  /** Base route without slashes, e.g. `type/exec-env`. */
  path: string;
  body: Record<string, unknown>;
  authorization: () => string;
}
