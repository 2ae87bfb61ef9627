/**
 * A brute-force reference for the US duty-period rules, written from the definitions and sharing no
 * code with the engine beyond the limit numbers: the timeline is cut into 15-minute slots, every
 * split-sleeper pairing plan of every chain between full resets is enumerated, each plan's violations
 * are counted slot by slot, and the plan with the fewest violations (by FMCSA's severity order), then
 * the most available time, is chosen. Timelines must be made of whole quarter hours from a UTC
 * midnight-aligned start; rule sets without daily limits or the 16-hour exception.
 */
import { limitsOf } from '../rules.js';
import { HOUR_MS, type DutyPeriod, type LimitKind, type RuleSet } from '../types.js';

const Q = 0.25;
const DAY = 24 * HOUR_MS;

export interface OracleViolation {
  kind: LimitKind;
  at: number;
  over: number;
}

export interface OracleResult {
  cost: [number, number, number];
  shared: OracleViolation[];
  period: OracleViolation[];
  /** Driving the duty-period limits (drive, window) allow at the end, and the window left. */
  driveRoom: number;
  windowRoom: number;
  hoursSinceBreak: number;
  cycleUsed: number;
}

interface Block {
  s: number;
  e: number;
  hours: number;
  sleeperRun: number;
  allSleeper: boolean;
  long: boolean;
}

interface Plan {
  pairs: Array<[Block, Block]>;
  pending: Block | null;
}

export function costOfOvers(list: readonly { over: number }[]): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  for (const v of list) c[v.over > 3 ? 0 : v.over < 0.25 ? 2 : 1]++;
  return c;
}

const cmp = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
const add = (a: readonly number[], b: readonly number[]): [number, number, number] => [a[0]! + b[0]!, a[1]! + b[1]!, a[2]! + b[2]!];

export function oracle(timeline: readonly DutyPeriod[], rules: RuleSet): OracleResult {
  const lim = limitsOf(rules);
  const split = lim.split!;
  const T = timeline[0]!.start;
  const slots: string[] = [];
  for (const p of timeline) {
    const n = Math.round((p.end - p.start) / HOUR_MS / Q);
    for (let i = 0; i < n; i++) slots.push(p.status);
  }
  const N = slots.length;
  const rest = (i: number) => slots[i] === 'OFF_DUTY' || slots[i] === 'SLEEPER_BERTH';
  const time = (i: number) => T + i * Q * HOUR_MS;

  // Rest blocks, the history before the timeline being a restart-long rest.
  const pre = lim.restartOffHours / Q;
  const blocks: Block[] = [];
  let i = 0;
  if (!rest(0)) blocks.push(mkBlock(-pre, 0, 0));
  while (i < N) {
    if (!rest(i)) {
      i++;
      continue;
    }
    const s = i;
    let run = 0;
    let best = 0;
    let all = true;
    while (i < N && rest(i)) {
      if (slots[i] === 'SLEEPER_BERTH') best = Math.max(best, ++run);
      else {
        run = 0;
        all = false;
      }
      i++;
    }
    blocks.push(mkBlock(s === 0 ? -pre : s, i, best * Q, s === 0 ? false : all));
  }
  function mkBlock(s: number, e: number, sleeperRun: number, allSleeper = false): Block {
    const long = sleeperRun >= split.longMinSleeperHours && (!split.bothInSleeper || allSleeper);
    return { s, e, hours: (e - s) * Q, sleeperRun, allSleeper, long };
  }
  const canPair = (b: Block) => b.hours >= split.shortMinHours && (!split.bothInSleeper || b.allSleeper);
  const pairValid = (x: Block, y: Block) => canPair(x) && canPair(y) && x.hours + y.hours >= split.totalMinHours && (x.long || y.long);
  const exclHours = (b: Block) => (b.long || split.excludeShortFromWindow ? b.hours : 0);

  // Chains between full resets.
  const resets = blocks.filter((b) => b.hours >= lim.resetOffHours);
  let total: [number, number, number] = [0, 0, 0];
  const period: OracleViolation[] = [];
  let final = { driveRoom: lim.driveHours, windowRoom: lim.windowHours, key: [0, 0, 0] as number[] };
  for (let k = 0; k < resets.length; k++) {
    const R = resets[k]!;
    const next = resets[k + 1] ?? null;
    const endSlot = next ? next.s : N;
    const cands = blocks.filter((b) => b.s >= R.e && b.e <= endSlot && b !== next && b.hours < lim.resetOffHours && canPair(b));
    const list = [R, ...cands];
    const plans: Plan[] = [];
    const gen = (minX: number, lastY: number, pairs: Array<[Block, Block]>) => {
      plans.push({ pairs, pending: null });
      if (!next && !split.bothInSleeper) {
        for (let z = Math.max(1, minX); z < list.length; z++) if (z !== lastY && list[z]!.long) plans.push({ pairs, pending: list[z]! });
      }
      for (let x = minX; x < list.length; x++) {
        for (let y = x + 1; y < list.length; y++) if (pairValid(list[x]!, list[y]!)) gen(y, y, [...pairs, [list[x]!, list[y]!]]);
        if (next && x > 0 && pairValid(list[x]!, next)) plans.push({ pairs: [...pairs, [list[x]!, next]], pending: null });
      }
    };
    gen(0, 0, []);
    let bestPlan: { cost: number[]; viol: OracleViolation[]; room: number; win: number } | null = null;
    for (const plan of plans) {
      const r = runPlan(R, endSlot, plan, !next);
      const better =
        bestPlan === null ||
        cmp(r.cost, bestPlan.cost) < 0 ||
        (!next && cmp(r.cost, bestPlan.cost) === 0 && (r.room > bestPlan.room || (r.room === bestPlan.room && r.win > bestPlan.win)));
      if (better) bestPlan = r;
    }
    total = add(total, bestPlan!.cost);
    period.push(...bestPlan!.viol);
    if (!next) final = { driveRoom: bestPlan!.room, windowRoom: bestPlan!.win, key: bestPlan!.cost };
  }

  function runPlan(R: Block, endSlot: number, plan: Plan, last: boolean) {
    const members = new Set<Block>();
    for (const [x, y] of plan.pairs) members.add(x).add(y);
    if (plan.pending) members.add(plan.pending);
    const anchorAt = (slot: number) => {
      let P = R.e;
      for (const [x, y] of plan.pairs) if (y.e <= slot) P = x.e;
      return P;
    };
    const counters = (slot: number) => {
      const P = anchorAt(slot);
      let drive = 0;
      for (let j = Math.max(P, 0); j < slot; j++) if (slots[j] === 'ON_DUTY_DRIVING') drive += Q;
      let window = (slot - P) * Q;
      for (const b of members) if (b.s >= P && b.e <= slot) window -= exclHours(b);
      return { P, drive, window };
    };
    const viol: OracleViolation[] = [];
    const open = new Map<string, OracleViolation>();
    for (let j = R.e; j < endSlot; j++) {
      if (slots[j] !== 'ON_DUTY_DRIVING') continue;
      const c = counters(j);
      const hit = (kind: LimitKind, over: boolean) => {
        if (!over) return;
        const key = `${kind}@${c.P}`;
        const v = open.get(key);
        if (v) v.over += Q;
        else {
          const nv = { kind, at: time(j), over: Q };
          open.set(key, nv);
          viol.push(nv);
        }
      };
      hit('DRIVE', c.drive >= lim.driveHours);
      hit('WINDOW', c.window >= lim.windowHours);
    }
    let room = 0;
    let win = 0;
    if (last) {
      const c = counters(N);
      win = lim.windowHours - c.window;
      room = Math.min(lim.driveHours - c.drive, win);
    }
    return { cost: costOfOvers(viol), viol, room, win };
  }

  // Limits that no pairing changes: the break and the cycle with its daily recap and restart.
  const shared: OracleViolation[] = [];
  let sinceBreak = 0;
  let nonDriving = lim.restartOffHours;
  let breakOpen: OracleViolation | null = null;
  let cycleOpen: OracleViolation | null = null;
  const ledger = new Map<number, number>();
  let day = Math.floor(T / DAY);
  let restRun = rest(0) ? lim.restartOffHours : 0;
  let restarted = true;
  const used = () => {
    let u = 0;
    for (let d = day - lim.cycleDays + 1; d <= day; d++) u += ledger.get(d) ?? 0;
    return u;
  };
  for (let j = 0; j < N; j++) {
    const d = Math.floor(time(j) / DAY);
    if (d !== day) {
      day = d;
      if (used() <= lim.cycleHours) cycleOpen = null;
    }
    if (rest(j)) {
      restRun += Q;
      nonDriving += Q;
      if (nonDriving >= lim.breakHours) {
        sinceBreak = 0;
        breakOpen = null;
      }
      if (!restarted && restRun >= lim.restartOffHours) {
        restarted = true;
        ledger.clear();
        cycleOpen = null;
      }
      continue;
    }
    restRun = 0;
    restarted = false;
    if (slots[j] === 'ON_DUTY_DRIVING') {
      if (sinceBreak >= lim.breakAfterDrivingHours) {
        if (breakOpen) breakOpen.over += Q;
        else shared.push((breakOpen = { kind: 'BREAK', at: time(j), over: Q }));
      }
      if (used() >= lim.cycleHours) {
        if (cycleOpen) cycleOpen.over += Q;
        else shared.push((cycleOpen = { kind: 'CYCLE', at: time(j), over: Q }));
      }
      sinceBreak += Q;
      nonDriving = 0;
    } else {
      nonDriving += Q;
      if (nonDriving >= lim.breakHours) {
        sinceBreak = 0;
        breakOpen = null;
      }
    }
    ledger.set(day, (ledger.get(day) ?? 0) + Q);
  }
  return {
    cost: add(total, costOfOvers(shared)),
    shared,
    period,
    driveRoom: final.driveRoom,
    windowRoom: final.windowRoom,
    hoursSinceBreak: sinceBreak,
    cycleUsed: used(),
  };
}
