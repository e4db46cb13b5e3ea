// The engines' per-connection answer memory: bounded in answers and in call keys, and the map a caller holds stays
// the one later calls find after the memory is emptied.
import { expect, test } from 'vitest';
import { AnswerMemory, memoryPerOwner } from '../../src/engines/answer-memory.js';

test('a new call key per request does not grow the memory past its bound (one empty map per date was kept)', () => {
  const memory = new AnswerMemory<number>(100);
  for (let day = 0; day < 10_000; day++) {
    const answers = memory.answersFor(`date-${String(day)}`);
    memory.add(answers, 'E119', day);
  }
  const { answers, callKeys } = memory.counts;
  expect(answers).toBeLessThanOrEqual(100);
  expect(callKeys).toBeLessThanOrEqual(100);
  // The newest answer is still there.
  expect(memory.answersFor('date-9999').get('E119')).toBe(9999);
});

test('when full, every answer is dropped and the map being added to stays the one its call key finds', () => {
  const memory = new AnswerMemory<string>(3);
  const a = memory.answersFor('a');
  const b = memory.answersFor('b');
  memory.add(a, 'x', 'ax');
  memory.add(b, 'x', 'bx');
  memory.add(b, 'y', 'by');
  expect(memory.counts).toEqual({ answers: 3, callKeys: 2 });
  memory.add(a, 'z', 'az'); // full: everything dropped, then az kept
  expect(memory.counts).toEqual({ answers: 1, callKeys: 1 });
  expect(memory.answersFor('a')).toBe(a);
  expect([...a]).toEqual([['z', 'az']]);
  expect(b.size).toBe(0);
  expect(memory.answersFor('b')).not.toBe(b);
});

test('forget removes one answer and frees its place; forgetting an absent one changes nothing', () => {
  const memory = new AnswerMemory<number>(2);
  const a = memory.answersFor('a');
  memory.add(a, 'x', 1);
  memory.add(a, 'y', 2);
  memory.forget(a, 'x');
  memory.forget(a, 'nothing');
  expect(memory.counts.answers).toBe(1);
  memory.add(a, 'z', 3); // room for it: nothing dropped
  expect([...a.keys()]).toEqual(['y', 'z']);
});

test('recall computes an answer once per call key and input, and again after the memory is emptied', () => {
  const memory = new AnswerMemory<string | null>(2);
  let computed = 0;
  const ask = (key: string, input: string): string | null =>
    memory.recall(key, input, () => {
      computed += 1;
      return input === 'none' ? null : `${key}:${input}`;
    });
  expect(ask('d1', 'a')).toBe('d1:a');
  expect(ask('d1', 'a')).toBe('d1:a');
  expect(ask('d1', 'none')).toBeNull();
  expect(ask('d1', 'none')).toBeNull();
  expect(computed).toBe(2);
  expect(ask('d2', 'a')).toBe('d2:a');
  expect(computed).toBe(3);
  expect(ask('d1', 'a')).toBe('d1:a');
  expect(computed).toBe(4);
});

test('memoryPerOwner gives each owner its own memory, the same one on every call', () => {
  const memoryOf = memoryPerOwner<number>(10);
  const a = {};
  const b = {};
  expect(memoryOf(a)).toBe(memoryOf(a));
  expect(memoryOf(a)).not.toBe(memoryOf(b));
});
