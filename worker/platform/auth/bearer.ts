// The one place an Authorization header becomes a bearer token ("" when there is none).
export function bearerToken(header: string | undefined): string {
  const value = header ?? "";
  return value.startsWith("Bearer ") ? value.slice(7).trim() : "";
}
