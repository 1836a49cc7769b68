/**
 * "Did you mean …?" for a name that is not known: the known name fewest edits away, when it
 * is close enough to be a likely typo (at most a third of the longer name's letters differ).
 */

/** Edits (insert, delete, replace one character) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, replace));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The known name closest to `given` (case-insensitively), or undefined when none is close. */
export function closestName(given: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(given.toLowerCase(), name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) return undefined;
  return best.distance <= Math.max(1, Math.floor(Math.max(given.length, best.name.length) / 3))
    ? best.name
    : undefined;
}

/** ` (did you mean "x"?)`, or nothing. */
export function didYouMean(given: string, known: readonly string[]): string {
  const closest = closestName(given, known);
  return closest === undefined ? "" : ` (did you mean "${closest}"?)`;
}
