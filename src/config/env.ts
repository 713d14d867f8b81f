/**
 * Reading environment variables: one reader per kind of value, each checking what it reads, so a bad value stops
 * the start with a sentence naming the variable instead of turning into a default or a failure later. The reader
 * remembers every name asked for: the configuration declares its variables by reading them
 * (test/config/variables.test.ts holds the README's table to that list).
 */
export type Env = Readonly<Record<string, string | undefined>>;

/** A variable with a value its reader refuses. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface IntRule {
  min?: number;
  max?: number;
}

/**
 * The one integer parser of the configuration: whole numbers within [min, max], written in decimal digits. `value`
 * is the raw text; undefined or empty means not set.
 */
export function parseInteger(variable: string, value: string | undefined, rule: IntRule = {}): number | undefined {
  if (value === undefined || value === '') return undefined;
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = rule;
  const n = Number(value);
  if (!/^\s*-?\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new ConfigError(variable, `${variable} must be an integer ${range}, got "${value}"`);
  }
  return n;
}

export function parseList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export class EnvReader {
  /** Every variable this reader was asked for, in order. */
  readonly names = new Set<string>();

  constructor(private readonly env: Env) {}

  /** The raw text; empty counts as not set. */
  text(name: string): string | undefined {
    this.names.add(name);
    const value = this.env[name];
    return value === '' ? undefined : value;
  }

  int(name: string, def: number, rule?: IntRule): number {
    return parseInteger(name, this.text(name), rule) ?? def;
  }

  optionalInt(name: string, rule?: IntRule): number | undefined {
    return parseInteger(name, this.text(name), rule);
  }

  list(name: string): string[] {
    return parseList(this.text(name));
  }
}
