/** Runs of letters and digits; punctuation (hyphens, dots, underscores) only separates them. Linear: no backtracking. */
const NOT_A_WORD_CHARACTER = /[^\p{L}\p{N}]+/u;

/**
 * Two capitals for an avatar: the first letters of the first two words ("sarah-jane" → "SJ", "Octo Seller" → "OS"),
 * or the first two letters of a single word ("octo" → "OC"). An e-mail address counts by its local part.
 */
export function initialsOf(name: string): string {
  const local = name.includes('@') ? name.slice(0, name.indexOf('@')) : name;
  const words = local.split(NOT_A_WORD_CHARACTER).filter(Boolean);
  const [first, second] = words;
  if (!first) return '?';
  const letters = second ? [...first].slice(0, 1).concat([...second].slice(0, 1)) : [...first].slice(0, 2);
  return letters.join('').toUpperCase();
}
