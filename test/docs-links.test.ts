/**
 * The docs hold together (issue 17): in README.md, CONTRIBUTING.md, every docs/**\/*.md and
 * bench/README.md, every relative link and image resolves to a file of the repository, every `#anchor`
 * (on the same page or another) matches a heading of the target page as GitHub computes its anchor
 * (github-slugger, duplicates numbered) or an explicit `<a id>` / `<a name>`, and every docs page can be
 * reached from README.md by following links. The checker itself is tested on a small made-up site, so
 * that it is known to fail when it should.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchorsOf, checkDocs, linksOf, markdownFiles, type Problem } from './helpers/docs-links.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = markdownFiles(ROOT, 'docs');
const PAGES = ['README.md', 'CONTRIBUTING.md', ...DOCS, 'bench/README.md'];

const show = (problems: Problem[]) => problems.map((p) => `${p.from}:${p.line}: ${p.target} — ${p.problem}`).join('\n');

describe('the docs', () => {
  const result = checkDocs(ROOT, PAGES, { start: 'README.md', mustReach: ['CONTRIBUTING.md', ...DOCS] });

  it('has pages in docs/, each opening with a title and a one-line purpose', () => {
    expect(DOCS.length).toBeGreaterThanOrEqual(15);
    for (const page of DOCS) {
      const [title, blank, purpose] = fs.readFileSync(path.join(ROOT, page), 'utf8').split('\n');
      expect(title, page).toMatch(/^# \S/);
      expect(blank, page).toBe('');
      expect(purpose, page).toMatch(/^[A-Z`]/);
    }
  });

  it('has only relative links and images that resolve, to files and to headings', () => {
    expect(result.links).toBeGreaterThan(100);
    expect(result.problems, show(result.problems)).toEqual([]);
  });

  it('reaches every docs page from README.md', () => {
    for (const page of DOCS) expect(result.reached.has(page), `${page} is not reachable from README.md`).toBe(true);
  });

  it('keeps README.md a front door: under 250 lines, linking every docs page directly or through the docs map', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(250);
    const linked = new Set(linksOf(readme, 'README.md').map((l) => l.target.split('#')[0]));
    for (const page of DOCS.filter((p) => !p.startsWith('docs/images/'))) expect(linked.has(page), `README.md does not link ${page}`).toBe(true);
  });
});

describe('the link checker', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-links-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };

  it('computes anchors as GitHub does: code and links as text, punctuation dropped, duplicates numbered', () => {
    const anchors = anchorsOf(
      [
        '# Server-Sent Events: `GET /api/v1/sse/alerts`',
        '## Settings (`/settings/<tab>`)',
        '## Platform administration (`/` for the platform administrator)',
        '## Resilience (`src/adapters/integrations/http.ts`)',
        '### Example',
        '### Example',
        '## A [linked](x.md) *emphasised* heading',
        '```sh',
        '# not a heading',
        '```',
        'Setext heading',
        '--------------',
        '<a id="custom-anchor"></a>',
      ].join('\n'),
    );
    expect([...anchors]).toEqual([
      'server-sent-events-get-apiv1ssealerts',
      'settings-settingstab',
      'platform-administration--for-the-platform-administrator',
      'resilience-srcadaptersintegrationshttpts',
      'example',
      'example-1',
      'a-linked-emphasised-heading',
      'setext-heading',
      'custom-anchor',
    ]);
  });

  it('reports a missing file, a missing image, a missing anchor on this or another page, and an unreachable page', () => {
    write(
      'README.md',
      [
        '# Front',
        '',
        '[ok](docs/a.md#a-heading) [ok too](#front) [missing file](docs/nope.md) ![missing image](docs/images/nope.png)',
        '[bad anchor](docs/a.md#not-there) [bad local anchor](#nowhere) [external](https://example.com/x#y)',
        '`[in code](docs/nope-in-code.md)`',
        '```md',
        '[in a fence](docs/nope-in-fence.md)',
        '```',
      ].join('\n'),
    );
    write('docs/a.md', '# A heading\n\nBack to [the front](../README.md).\n');
    write('docs/orphan.md', '# Orphan\n\nNobody links here.\n');
    const { problems } = checkDocs(dir, ['README.md', 'docs/a.md', 'docs/orphan.md'], { start: 'README.md', mustReach: ['docs/a.md', 'docs/orphan.md'] });
    expect(problems.map((p) => [p.target, p.problem.split(':')[0]])).toEqual([
      ['docs/nope.md', 'no such file'],
      ['docs/images/nope.png', 'no such file'],
      ['docs/a.md#not-there', 'no heading or <a id> "not-there" in docs/a.md'],
      ['#nowhere', 'no heading or <a id> "nowhere" in README.md'],
      ['docs/orphan.md', 'docs/orphan.md cannot be reached from README.md by following links'],
    ]);
  });
});
