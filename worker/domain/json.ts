// Reading JSON kept in a text column: the value, or null when there is none or it does not parse.

export function parseJson<T>(text: string | null | undefined): T | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}
