// attnx: the methods a worker runs in slices and stops on a 'cancel' message (worker.js runs
// them so, pool.js cancels them so). Each must return { cancelled: true } when its progress
// callback returns false, and resume when called again.
export const SLICED = new Set(['construct']);
