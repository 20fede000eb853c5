import { readFileSync } from 'node:fs';
import { packageFile } from '../../package-files.ts';

/** The switch-over guide, shipped in the package beside dist/ (see package.json `files`). */
export const GUIDE_PATH = 'docs/replacing-the-osticket-web-service.md';

/** A difference the guide lists: its anchor and its text as a person reads it. */
export interface GuideItem {
  anchor: string;
  text: string;
}

function plain(markdown: string): string {
  return markdown
    .replace(/<a id="[^"]*"><\/a>/g, '')
    .replace(/\*\*|`/g, '')
    .replace(/(^|\s)\*([^*]+)\*/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The items of the guide's "What changes for existing clients", by anchor: each is a list item
 * starting `- <a id="change-…"></a>`, up to the next item or the next heading.
 */
export function parseGuideItems(markdown: string): Map<string, GuideItem> {
  const items = new Map<string, GuideItem>();
  const lines = markdown.split('\n');
  let current: { anchor: string; lines: string[] } | undefined;
  const close = () => {
    if (current)
      items.set(current.anchor, { anchor: current.anchor, text: plain(current.lines.join(' ')) });
    current = undefined;
  };
  for (const line of lines) {
    const start = /^- <a id="(change-[a-z0-9-]+)"><\/a>/.exec(line);
    if (start?.[1]) {
      close();
      current = { anchor: start[1], lines: [line.slice(2)] };
    } else if (current && (line.startsWith('#') || line.startsWith('- ') || line.trim() === '')) {
      close();
    } else if (current) {
      current.lines.push(line);
    }
  }
  close();
  return items;
}

/** The guide's items as shipped with this deskgate; empty when the file is missing. */
export function readGuideItems(): Map<string, GuideItem> {
  try {
    return parseGuideItems(readFileSync(packageFile(GUIDE_PATH), 'utf8'));
  } catch {
    return new Map();
  }
}
