/**
 * Environment variables as the app, the Shipping API service and the local admin parse them: a variable set
 * to nothing (`NAME=` in a .env file or a shell, or only spaces) counts as not set, so an optional variable
 * takes its default instead of stopping the process ("Invalid ISO datetime" for an empty date, port 0 for an
 * empty port), and a required one is reported as missing.
 */
export function withoutEmptyVariables(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ""));
}
