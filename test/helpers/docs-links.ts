/**
 * The docs' link checker (test/docs-links.test.ts): every relative link and image of the Markdown pages
 * resolves to a file of the repository, every `#anchor` names a heading of its page as GitHub makes
 * heading anchors (github-slugger, duplicates numbered -1, -2, …) or an explicit `<a id>` / `<a name>`,
 * and every page is reachable from the front page by following links.
 */
import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';

export interface Link {
  /** The page the link is on, relative to the root. */
  from: string;
  line: number;
  target: string;
}

export interface Problem {
  from: string;
  line: number;
  target: string;
  problem: string;
}

/** Fenced code blocks (``` or ~~~, any length) and HTML comments, blanked line by line (line numbers kept). */
function blankCode(markdown: string): string {
  const lines = markdown.split('\n');
  let fence: string | null = null;
  const out = lines.map((line) => {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && m) {
      fence = m[1]!;
      return '';
    }
    if (fence !== null) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
      return '';
    }
    return line;
  });
  return out.join('\n').replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, ' '));
}

/** Inline code spans blanked (links inside them are text, not links). */
function blankInlineCode(line: string): string {
  return line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (c) => ' '.repeat(c.length));
}

const INLINE_LINK = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE_DEF = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/;
const HTML_ATTR = /<(?:a|img|source)\b[^>]*?\s(?:href|src|srcset)\s*=\s*["']([^"']+)["']/gi;

/** The links and images of a page: inline, reference definitions and HTML `href` / `src`. */
export function linksOf(markdown: string, from: string): Link[] {
  const links: Link[] = [];
  blankCode(markdown)
    .split('\n')
    .forEach((raw, i) => {
      const line = blankInlineCode(raw);
      for (const m of line.matchAll(INLINE_LINK)) links.push({ from, line: i + 1, target: m[1]! });
      const def = REFERENCE_DEF.exec(line);
      if (def) links.push({ from, line: i + 1, target: def[1]! });
      for (const m of line.matchAll(HTML_ATTR)) links.push({ from, line: i + 1, target: m[1]!.split(/\s+/)[0]! });
    });
  return links;
}

/** A heading's text as GitHub renders it (code spans kept literally, links as their text, no emphasis or tags). */
function headingText(markdown: string): string {
  const codes: string[] = [];
  let text = markdown.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_c, _f, code: string) => {
    codes.push(code.trim());
    return `\u0000${codes.length - 1}\u0000`;
  });
  text = text
    .replace(/!?\[((?:[^[\]]|\[[^\]]*\])*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?!\s)(.+?)\*(?!\w)/g, '$1$2')
    .replace(/(^|\W)_(?!\s)(.+?)_(?!\w)/g, '$1$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1');
  return text.replace(/\u0000(\d+)\u0000/g, (_c, i: string) => codes[Number(i)]!);
}

/** The anchors GitHub gives a page: one per heading (ATX and setext) in order, and explicit `<a id|name>`. */
export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const lines = blankCode(markdown).split('\n');
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/.exec(line);
    if (atx) {
      anchors.add(slugger.slug(headingText(atx[1] ?? '')));
    } else if (i + 1 < lines.length && /^ {0,3}(=+|-+)\s*$/.test(lines[i + 1]!) && line.trim() !== '' && !/^\s*([-*+]\s|\d+[.)]\s|>|\|)/.test(line)) {
      anchors.add(slugger.slug(headingText(line.trim())));
    }
    for (const m of line.matchAll(/<a\s[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1]!);
  });
  return anchors;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/**
 * Checks the pages (paths relative to `root`): relative targets exist, anchors exist, and every page of
 * `mustReach` can be reached from `start` by following links between Markdown files.
 */
export function checkDocs(root: string, pages: string[], opts: { start: string; mustReach: string[] }): { problems: Problem[]; links: number; reached: Set<string> } {
  const problems: Problem[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOfFile = (file: string) => {
    let a = anchorCache.get(file);
    if (!a) anchorCache.set(file, (a = anchorsOf(fs.readFileSync(path.join(root, file), 'utf8'))));
    return a;
  };
  const edges = new Map<string, Set<string>>();
  let count = 0;

  for (const page of pages) {
    const out = new Set<string>();
    edges.set(page, out);
    for (const link of linksOf(fs.readFileSync(path.join(root, page), 'utf8'), page)) {
      if (EXTERNAL.test(link.target)) continue;
      count++;
      const report = (problem: string) => problems.push({ ...link, problem });
      const hash = link.target.indexOf('#');
      const rawPath = hash < 0 ? link.target : link.target.slice(0, hash);
      const anchor = hash < 0 ? null : decodeURIComponent(link.target.slice(hash + 1));
      const pathPart = decodeURIComponent(rawPath.split('?')[0]!);
      if (pathPart.startsWith('/')) {
        report('absolute path: write it relative to the page, as GitHub resolves it');
        continue;
      }
      let target = pathPart === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), pathPart));
      if (target.startsWith('..')) {
        report('points outside the repository');
        continue;
      }
      const full = path.join(root, target);
      if (!fs.existsSync(full)) {
        report(`no such file: ${target}`);
        continue;
      }
      if (fs.statSync(full).isDirectory()) {
        const readme = path.posix.join(target, 'README.md');
        if (anchor === null && !fs.existsSync(path.join(root, readme))) continue;
        target = readme;
        if (!fs.existsSync(path.join(root, target))) {
          report(`a directory without README.md: ${pathPart}`);
          continue;
        }
      }
      if (target.endsWith('.md')) out.add(target);
      if (anchor === null || anchor === '') continue;
      if (!target.endsWith('.md')) {
        if (!/^L\d+(?:-L\d+)?$/.test(anchor)) report(`#${anchor} on a file that is not Markdown`);
        continue;
      }
      if (!anchorsOfFile(target).has(anchor)) report(`no heading or <a id> "${anchor}" in ${target}`);
    }
  }

  const reached = new Set<string>([opts.start]);
  const queue = [opts.start];
  while (queue.length) {
    for (const next of edges.get(queue.shift()!) ?? []) {
      if (!reached.has(next)) {
        reached.add(next);
        queue.push(next);
      }
    }
  }
  for (const page of opts.mustReach) {
    if (!reached.has(page)) problems.push({ from: opts.start, line: 0, target: page, problem: `${page} cannot be reached from ${opts.start} by following links` });
  }
  return { problems, links: count, reached };
}

/** Every `*.md` under `dir` (relative to `root`), sorted. */
export function markdownFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const p = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}
