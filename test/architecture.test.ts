/**
 * The import structure, proved from the code: dependency-cruiser reads every import (type-only ones
 * too) of the service, its tests and the dashboard, and checks them against the rules in
 * .dependency-cruiser.cjs (layers that point down, no cycles, no test code in production code).
 * `npm run lint:deps` runs the same rules from the command line.
 */
import path from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
/** What is cruised: the same folders as `npm run lint:deps`. */
const CRUISED = ['src', 'test', 'web/src'];

/** One broken rule per paragraph: its name and why it exists, then each offending import (or cycle). */
function describeViolations(violations: IViolation[], whyOf: Map<string, string>): string {
  const byRule = new Map<string, IViolation[]>();
  for (const v of violations) byRule.set(v.rule.name, [...(byRule.get(v.rule.name) ?? []), v]);
  return [...byRule]
    .map(([rule, vs]) => {
      const lines = vs.map((v) => {
        if (v.cycle?.length) {
          const steps = v.cycle.map((step) => `${step.name}${step.dependencyTypes.includes('type-only') ? ' (type-only)' : ''}`);
          return `  ${v.from} → ${steps.join(' → ')}`;
        }
        return `  ${v.from} → ${v.to}`;
      });
      return `${rule}: ${whyOf.get(rule) ?? ''}\n${lines.join('\n')}`;
    })
    .join('\n\n');
}

describe('architecture', () => {
  it('keeps the layers, has no import cycles and no test code in what ships', async () => {
    const options = await extractDepcruiseOptions(path.join(ROOT, '.dependency-cruiser.cjs'));
    const tsConfigFile = path.join(ROOT, 'tsconfig.json');
    const { output } = await cruise(
      CRUISED.map((dir) => path.join(ROOT, dir)),
      { ...options, baseDir: ROOT, tsConfig: { fileName: tsConfigFile } },
      {},
      { tsConfig: extractTSConfig(tsConfigFile) },
    );
    const result = output as ICruiseResult;

    // Not a vacuous pass: the cruise saw the service, its tests and the dashboard.
    const sources = result.modules.map((m) => m.source);
    for (const dir of CRUISED) expect(sources.filter((s) => s.startsWith(`${dir}/`)).length, `modules cruised under ${dir}/`).toBeGreaterThan(20);

    const whyOf = new Map((options.ruleSet?.forbidden ?? []).map((rule) => [rule.name ?? '', rule.comment ?? '']));
    const warnings = result.summary.violations.filter((v) => v.rule.severity === 'warn');
    if (warnings.length > 0) console.warn(`Import rules with known exceptions (warnings):\n\n${describeViolations(warnings, whyOf)}`);
    const errors = result.summary.violations.filter((v) => v.rule.severity === 'error');
    if (errors.length > 0) expect.fail(`${errors.length} import(s) break the architecture rules of .dependency-cruiser.cjs:\n\n${describeViolations(errors, whyOf)}\n`);
  });
});
