// Types of the package's main entry (scripts/build-npm adds the default export for `import`).

/** How the file is read: RFC 9309 with Archive-Embargo, or Google's matcher verdict for verdict. */
export type Profile = 'rfc9309' | 'google';

export interface ParseOptions {
  /** `'rfc9309'` (the default) or `'google'`. */
  profile?: Profile;
  /** The parse limit in bytes, at least 512000 (RFC 9309 §2.5); default 512000. */
  maxBytes?: number;
}

export interface CheckOptions {
  /** The crawler honours Archive-Embargo (RFC 9309 profile only). */
  embargo?: boolean;
}

/** Why a verdict came out so; `unavailable` and `unreachable` come from `fromResponse`. */
export type Reason =
  | 'robots-txt'
  | 'no-group'
  | 'no-match'
  | 'longest'
  | 'tie-won-by-allow'
  | 'empty-disallow'
  | 'unavailable'
  | 'unreachable';

/** The fields of `robots check --format json`; `null` where they do not apply. */
export interface Verdict {
  allowed: boolean;
  /** The 1-based line of the deciding rule. */
  line: number | null;
  rule: 'allow' | 'disallow' | 'embargo-allow' | null;
  /** The deciding rule's pattern as written. */
  pattern: string | null;
  reason: Reason;
  /** For a crawler honouring Archive-Embargo: the embargo on what it fetches, in days. */
  embargoDays: number | null;
  /**
   * The deciding Content-Usage rule's categories, each `'y'` or `'n'`
   * (draft-ietf-aipref-attach-05 §3): `{ 'train-ai': 'n' }`; `{}` for a rule stating
   * none; `null` when no rule applies or the URL is disallowed.
   */
  contentUsage: Record<string, 'y' | 'n'> | null;
  /** The deciding Content-Usage line (the first, when rules of one length combine). */
  contentUsageLine: number | null;
  /** The Content-Signal keys of the crawler's groups, each `'yes'` or `'no'`. */
  contentSignal: Record<string, 'yes' | 'no'> | null;
  /** The Content-Signal line. */
  contentSignalLine: number | null;
}

export interface Diagnostic {
  line: number;
  column: number;
  length: number;
  spanColumn: number;
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  suggestion: string | null;
}

export interface Explanation {
  verdict: Verdict & { url: string };
  path: string;
  selection: 'named' | 'global' | 'none';
  groupLines: number[];
  selectionText: string;
  matches: Array<{
    line: number;
    rule: 'allow' | 'disallow' | 'embargo-allow';
    directive: string;
    pattern: string;
    length: number;
    counted: boolean;
    decides: boolean;
  }>;
  embargoAllow: string;
  embargoAllowText: string | null;
  reasonText: string;
}

export interface Summary {
  profile: Profile;
  bytes: number;
  parsedBytes: number;
  parseLimit: number;
  lines: number;
  groups: Array<{ line: number; agents: string[] }>;
  sitemaps: string[];
}

/** A parsed robots.txt. An invalid agent name throws an `Error` saying what is wrong. */
export declare class Robots {
  private constructor();
  /** Parses text or bytes; never fails on content. */
  static parse(input: string | Uint8Array | ArrayBuffer, options?: ParseOptions): Robots;
  /** RFC 9309 §2.3.1: 2xx parses `body`, 4xx allows all, 5xx or 0 (no answer) disallows all but /robots.txt; 3xx throws. */
  static fromResponse(
    status: number,
    body?: string | Uint8Array | ArrayBuffer | null,
    options?: ParseOptions,
  ): Robots;
  readonly profile: Profile;
  /** `agent`: a product token (`ExampleBot`) or a User-Agent header; `url`: absolute or a path. */
  check(agent: string, url: string | URL, options?: CheckOptions): Verdict;
  isAllowed(agent: string, url: string | URL, options?: CheckOptions): boolean;
  explain(agent: string, url: string | URL, options?: CheckOptions): Explanation;
  /** Seconds, or `null`. */
  crawlDelay(agent: string): number | null;
  sitemaps(): string[];
  host(): string | null;
  lint(): Diagnostic[];
  summary(): Summary;
  free(): void;
}

/** `Robots.parse`, as a function of its own. */
export declare function parse(input: string | Uint8Array | ArrayBuffer, options?: ParseOptions): Robots;
/** `Robots.fromResponse`, as a function of its own. */
export declare function fromResponse(
  status: number,
  body?: string | Uint8Array | ArrayBuffer | null,
  options?: ParseOptions,
): Robots;
