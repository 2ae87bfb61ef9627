/**
 * The planner benchmark by CPU time, for comparing versions on a shared, noisy machine: plans/s =
 * plans / (user + system CPU seconds of this process) over a fixed number of plans, the median of a
 * few rounds. Two inputs: the bench trip planned again and again ("identical"), and the same trip with
 * every plan's input different ("perturbed": the departure moves by one minute per plan and the stops
 * by up to ±0.05° from a pool of 32 variants, so nothing can be reused from one plan to the next).
 *
 *   npx tsx bench/planner-cpu.ts            PLANS=3000 ROUNDS=5 by default
 */
import { planRoute } from '../src/domain/planning/planner.js';
import type { PlanInput } from '../src/domain/planning/types.js';
import { plannerInput, plannerVariants, variedInput } from './planner.js';

const PLANS = Number(process.env.PLANS ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

function cpuPlansPerSecond(next: (i: number) => PlanInput): number {
  const rates: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < PLANS; i++) planRoute(next(i));
    const c = process.cpuUsage(c0);
    rates.push(PLANS / ((c.user + c.system) / 1e6));
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)]!;
}

const same = plannerInput();
const pool = plannerVariants(32);
let minute = 0;
const perturbed = (): PlanInput => variedInput(pool, ++minute);
// Warm up both paths.
for (let i = 0; i < 500; i++) {
  planRoute(same);
  planRoute(perturbed());
}
const identical = cpuPlansPerSecond(() => same);
const varied = cpuPlansPerSecond(perturbed);
console.log(`planner (CPU time, median of ${ROUNDS} × ${PLANS} plans): identical ${identical.toFixed(0)} plans/s, perturbed ${varied.toFixed(0)} plans/s`);
