// Answers an engine remembers per reference connection (the database is read-only, so an answer never changes):
// one map of answers per call key (a date, a code set), each keyed by the input as given, bounded by the number of
// answers across all call keys. Past the bound everything is dropped, the call keys too (a caller sending a new
// date with every request must not grow the memory by one empty map per date), and refilled.
//
//   memory.answersFor('2026-06-15|ICD-10 CM') ─► Map (input → answer), probed by the caller directly
//   memory.add(answers, input, answer)        ─► counted; when full, every map is emptied and forgotten first

/** The remembered answers of one engine on one connection. */
export class AnswerMemory<T> {
  private size = 0;
  private readonly byCall = new Map<string, Map<string, T>>();

  /** @param max - answers kept across all call keys before they are all dropped */
  constructor(private readonly max: number) {}

  /** The answers of one call key, created empty when new. The caller probes the map itself. */
  answersFor(callKey: string): Map<string, T> {
    let answers = this.byCall.get(callKey);
    if (answers === undefined) {
      answers = new Map();
      this.byCall.set(callKey, answers);
    }
    return answers;
  }

  /**
   * Remembers a new answer in `answers` (a map from {@link answersFor}). When the memory is full, every map is
   * emptied and every call key forgotten first, except the key of `answers`, which stays so the caller's map is
   * still the one later calls find.
   */
  add(answers: Map<string, T>, input: string, answer: T): void {
    if (this.size >= this.max) {
      for (const [key, m] of this.byCall) {
        m.clear();
        if (m !== answers) {
          this.byCall.delete(key);
        }
      }
      this.size = 0;
    }
    answers.set(input, answer);
    this.size += 1;
  }

  /**
   * The answer remembered for `input` under `callKey`, computed by `compute` and remembered on the first ask.
   * `T` must not include `undefined` (it means "not remembered"): remember `null` for "no answer".
   */
  recall(callKey: string, input: string, compute: () => T): T {
    const answers = this.answersFor(callKey);
    let answer = answers.get(input);
    if (answer === undefined) {
      answer = compute();
      this.add(answers, input, answer);
    }
    return answer;
  }

  /** Forgets one answer (an entry a failed batch left unanswered). */
  forget(answers: Map<string, T>, input: string): void {
    if (answers.delete(input)) {
      this.size -= 1;
    }
  }

  /** How many answers and call keys are kept (for tests and diagnostics). */
  get counts(): { readonly answers: number; readonly callKeys: number } {
    return { answers: this.size, callKeys: this.byCall.size };
  }
}

/**
 * One memory per owner (a Reference connection's lookups object), made on first use and dropped with the owner.
 * @param max - answers each memory keeps (see {@link AnswerMemory})
 * @returns the owner → memory accessor
 */
export function memoryPerOwner<T>(max: number): (owner: object) => AnswerMemory<T> {
  const memories = new WeakMap<object, AnswerMemory<T>>();
  return (owner) => {
    let memory = memories.get(owner);
    if (memory === undefined) {
      memory = new AnswerMemory<T>(max);
      memories.set(owner, memory);
    }
    return memory;
  };
}

/**
 * A joiner of call keys: `${a}|${b}`, the same string while the parts repeat. A night's claims ask with one setting
 * (or NCD, or code set) and date after another, and a call key built anew for every ask is hashed anew by the probe.
 */
export function keyJoiner(): (a: string, b: string) => string {
  let lastA = '';
  let lastB = '';
  let last = '|';
  return (a, b) => {
    if (a !== lastA || b !== lastB) {
      lastA = a;
      lastB = b;
      last = `${a}|${b}`;
    }
    return last;
  };
}
