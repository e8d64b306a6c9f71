/**
 * Fault injection for tests and benchmarks: per-route rules that answer with a
 * status, reset the connection, stall the body, or send malformed JSON.
 */
import { faultRulesSchema, type FaultRule } from './options.ts';

export interface ActiveFault {
  rule: FaultRule;
  re: RegExp;
  remaining: number;
}

export class Faults {
  private rules: ActiveFault[] = [];

  constructor(initial: FaultRule[] = []) {
    this.add(initial);
  }

  /** Adds rules (validated); throws a readable error for a bad one. */
  add(rules: unknown): void {
    const parsed = faultRulesSchema.safeParse(Array.isArray(rules) ? rules : [rules]);
    if (!parsed.success) {
      throw new Error(
        `invalid fault rule: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    for (const rule of parsed.data) {
      let re: RegExp;
      try {
        re = new RegExp(rule.path);
      } catch {
        throw new Error(`invalid fault rule: path ${JSON.stringify(rule.path)} is not a regular expression`);
      }
      this.rules.push({ rule, re, remaining: rule.times ?? Infinity });
    }
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map((r) => r.rule);
  }

  /** The first rule matching this request, consuming one of its uses. */
  take(method: string, path: string): FaultRule | null {
    for (const f of this.rules) {
      if (f.remaining <= 0) continue;
      if (f.rule.method && f.rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (!f.re.test(path)) continue;
      f.remaining -= 1;
      return f.rule;
    }
    return null;
  }
}
