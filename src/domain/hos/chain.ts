/**
 * The duty-period chain since the last full reset, with the split-sleeper pairings still open.
 *
 * A rest block of at least `resetOffHours` starts a new chain. Inside a chain, every rest block long
 * enough to be a split period ("candidate") can be counted in the window, designated as the first
 * period of a pair (then it does not count against the window), or, when a designated period is
 * open, complete a pair with it: the duty period is then recalculated from the end of the first
 * period, and the second one does not count against the window either (49 CFR 395.1(g)(1)(ii)). A
 * pair's second period can be the first of the next pair (chained splits); the reset that starts a
 * chain can be the first period of a pair (a rest of 10+ h is "a period of at least 2 hours", and one
 * with 7 consecutive sleeper hours is a long one), and it can be the second period for the chain it
 * ends.
 *
 * Which pairing applies is decided with hindsight, as FMCSA's 2020 FAQ Q4 asks: the one with the
 * fewest violations (out-of-service level first, then violations, then nominal ones), then the most
 * available time. So the chain keeps every plausible hypothesis (pruned by dominance, capped) and the
 * answer is read from the best one. A designated period that has not found its partner yet counts as
 * excluded only when any later rest would complete the pair (a long sleeper period under a rule that
 * accepts any partner): a driver always rests again. A short one stays counted until its long partner
 * comes, so adding off-duty time can never create a violation.
 */
import type { HosLimits, SplitRule } from './rules.js';
import { HOUR_MS } from './types.js';
import { compareCost, costOf, EPS, type Cost, type VRec } from './violations.js';

/** A completed (or, for a query, virtually completed) rest block. */
export interface Cand {
  readonly start: number;
  readonly end: number;
  readonly hours: number;
  readonly sleeperRun: number;
  readonly long: boolean;
  /**
   * The part of the block that is the split period: the whole block where off duty and sleeper time
   * combine (US, California); its longest sleeper-berth stretch where both periods must be spent in
   * the sleeper (Texas, Canada). Its length, and its end (the recalculation point when it comes first).
   */
  readonly splitHours: number;
  readonly splitEnd: number;
  /** Cumulative driving / on-duty hours of the whole history at this block (none accrue during it). */
  readonly cumDrive: number;
  readonly cumOnDuty: number;
}

export type Anchor =
  | { readonly kind: 'START'; readonly at: number }
  | { readonly kind: 'RESET'; readonly rest: Cand }
  | { readonly kind: 'SPLIT'; readonly first: Cand; readonly second: Cand };

export interface Hyp {
  /** The calculation point: drive and window are counted from here. */
  readonly anchorEnd: number;
  readonly anchor: Anchor;
  readonly drive: number;
  /** Elapsed hours since the anchor, less the excluded split periods. */
  readonly window: number;
  /** On-duty hours since the anchor (Texas's 15 h, Canada's 14 h shift limits). */
  readonly onDuty: number;
  /** The period waiting for (or, when free, available for) a partner. */
  readonly open: Cand | null;
  /** The open period is already excluded as the second period of the last pair: no partner owed. */
  readonly openFree: boolean;
  /** Violations of the duty-period limits in this chain under this hypothesis. */
  readonly viol: readonly VRec[];
  readonly flags: number;
  /** The duty period (anchor) in which the 16-hour short-haul window was used, and when. */
  readonly extPeriod: number | null;
  readonly extAt: number | null;
}

const MAX_HYPS = 24;

export function makeCand(
  split: SplitRule | null,
  start: number,
  end: number,
  hours: number,
  sleeperRun: number,
  sleeperRunEnd: number,
  cumDrive: number,
  cumOnDuty: number,
): Cand {
  const long = split !== null && sleeperRun >= split.longMinSleeperHours - EPS;
  const inSleeper = split !== null && split.bothInSleeper;
  return {
    start,
    end,
    hours,
    sleeperRun,
    long,
    splitHours: inSleeper ? sleeperRun : hours,
    splitEnd: inSleeper ? sleeperRunEnd : end,
    cumDrive,
    cumOnDuty,
  };
}

export const canPair = (s: SplitRule, c: Cand): boolean => c.splitHours >= s.shortMinHours - EPS;

export const pairValid = (s: SplitRule, x: Cand, y: Cand): boolean =>
  canPair(s, x) && canPair(s, y) && x.splitHours + y.splitHours >= s.totalMinHours - EPS && (x.long || y.long);

/** Hours of the block that do not count against the window when it is a split period. */
const excludedHours = (s: SplitRule, c: Cand): number => (c.long || s.excludeShortFromWindow ? c.splitHours : 0);

/** A hypothesis whose open obligations are met if the timeline ended now (see the module comment). */
export function validAtEnd(lim: HosLimits, h: Hyp): boolean {
  if (h.open === null || h.openFree) return true;
  return h.open.long && lim.split !== null && !lim.split.bothInSleeper;
}

export const hypCost = (h: Hyp): Cost => costOf(h.viol);

/**
 * A copy of a hypothesis to modify, every field written out in one order (the same as `startHyp`), so
 * all hypotheses share one object shape; a spread is several times slower on the engine's hot path.
 */
export function copyHyp(h: Hyp): Mutable<Hyp> {
  return {
    anchorEnd: h.anchorEnd,
    anchor: h.anchor,
    drive: h.drive,
    window: h.window,
    onDuty: h.onDuty,
    open: h.open,
    openFree: h.openFree,
    viol: h.viol,
    flags: h.flags,
    extPeriod: h.extPeriod,
    extAt: h.extAt,
  };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The hypothesis with `hours` more counted in its window. */
function withWindow(h: Hyp, hours: number): Hyp {
  const next = copyHyp(h);
  next.window += hours;
  return next;
}

export function startHyp(anchor: Anchor, anchorEnd: number, open: Cand | null, extAt: number | null): Hyp {
  return { anchorEnd, anchor, drive: 0, window: 0, onDuty: 0, open, openFree: open !== null, viol: [], flags: 0, extPeriod: null, extAt };
}

/**
 * A rest block of at least the reset length ends the chain: picks the hypothesis with the fewest
 * violations whose open period is paired by this rest (or owes nothing), and starts a new chain.
 */
export function finalizeChain(lim: HosLimits, hyps: readonly Hyp[], reset: Cand): { best: Hyp; next: Hyp } {
  let best: Hyp | null = null;
  let bestCost: Cost | null = null;
  for (const h of hyps) {
    const ok = h.open === null || h.openFree || (lim.split !== null && pairValid(lim.split, h.open, reset));
    if (!ok) continue;
    const c = hypCost(h);
    if (bestCost === null || compareCost(c, bestCost) < 0) {
      best = h;
      bestCost = c;
    }
  }
  const chosen = best ?? hyps[0]!;
  return { best: chosen, next: startHyp({ kind: 'RESET', rest: reset }, reset.end, reset, chosen.extAt) };
}

/** A candidate rest block shorter than a reset: count it, designate it, or complete a pair with it. */
export function branchOn(lim: HosLimits, hyps: readonly Hyp[], c: Cand): readonly Hyp[] {
  const s = lim.split;
  if (s === null || !canPair(s, c)) return hyps.map((h) => withWindow(h, c.hours));
  const out: Hyp[] = [];
  const excl = excludedHours(s, c);
  for (const h of hyps) {
    out.push(withWindow(h, c.hours));
    if (h.open === null || h.openFree) {
      const designated = copyHyp(h);
      designated.window = h.window + c.hours - excl;
      designated.open = c;
      designated.openFree = false;
      out.push(designated);
    }
    if (h.open !== null && pairValid(s, h.open, c)) {
      const first = h.open;
      const same = first.splitEnd === h.anchorEnd;
      out.push({
        anchorEnd: first.splitEnd,
        anchor: { kind: 'SPLIT', first, second: c },
        drive: c.cumDrive - first.cumDrive,
        window: (c.end - first.splitEnd) / HOUR_MS - excl,
        onDuty: c.cumOnDuty - first.cumOnDuty,
        open: c,
        openFree: true,
        viol: h.viol,
        // Pairing with the rest that set the current calculation point keeps that point: same episodes.
        flags: same ? h.flags : 0,
        extPeriod: same ? h.extPeriod : null,
        extAt: h.extAt,
      });
    }
  }
  return prune(lim, out);
}

function dominates(a: Hyp, b: Hyp): boolean {
  if (compareCost(hypCost(a), hypCost(b)) > 0) return false;
  if (a.drive > b.drive + EPS || a.window > b.window + EPS || a.onDuty > b.onDuty + EPS) return false;
  if ((a.flags & b.flags) !== b.flags) return false;
  return a.extAt === b.extAt && (a.extPeriod === null) === (b.extPeriod === null);
}

/** The same open period (or a free one against none) with no more violations and no larger counters wins. */
function comparable(a: Hyp, b: Hyp): boolean {
  if (b.open === null) return a.open === null || a.openFree;
  return a.open !== null && a.open.end === b.open.end && a.openFree === b.openFree;
}

function prune(lim: HosLimits, hyps: Hyp[]): readonly Hyp[] {
  if (hyps.length <= 1) return hyps;
  const keep: Hyp[] = [];
  for (let i = 0; i < hyps.length; i++) {
    const b = hyps[i]!;
    let dominated = false;
    for (let j = 0; j < hyps.length && !dominated; j++) {
      if (i === j) continue;
      const a = hyps[j]!;
      // Among equals keep the earlier one.
      if (comparable(a, b) && dominates(a, b) && !(j > i && comparable(b, a) && dominates(b, a))) dominated = true;
    }
    if (!dominated) keep.push(b);
  }
  if (keep.length <= MAX_HYPS) return keep;
  // Pathological histories (many short rests without a reset): keep the most promising hypotheses.
  keep.sort(
    (a, b) =>
      Number(validAtEnd(lim, b)) - Number(validAtEnd(lim, a)) ||
      compareCost(hypCost(a), hypCost(b)) ||
      a.drive - b.drive ||
      a.window - b.window,
  );
  return keep.slice(0, MAX_HYPS);
}
