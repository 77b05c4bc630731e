// Types of the robots-parser drop-in under import: `import robotsParser from '…/compat'`.

export interface Robot {
  /** `undefined` for a URL of another origin than the robots.txt's. */
  isAllowed(url: string, ua?: string): boolean | undefined;
  isDisallowed(url: string, ua?: string): boolean | undefined;
  /** -1 when no rule decided or the URL is of another origin. */
  getMatchingLineNumber(url: string, ua?: string): number;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
  getPreferredHost(): string | null;
}

export default function robotsParser(url: string, robotstxt: string | Uint8Array): Robot;
