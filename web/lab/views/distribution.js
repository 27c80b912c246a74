// attnx lab: the success curve of a result's point: the core's dDistribution of its d_mins
// ({ trials, reached, maxReached, steps: [{ d, count, p }] }), asked once per point object (a
// point is never changed in place: a new one replaces it).
const memo = new WeakMap();

// The distribution of point.d_mins (core: the module's API on this thread).
export function distributionOf(core, point) {
  let d = memo.get(point);
  if (!d) {
    d = core.dDistribution(point.d_mins);
    memo.set(point, d);
  }
  return d;
}
