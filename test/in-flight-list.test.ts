import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InFlightList } from '../src/lib/in-flight-list';

// The list stands in for a Set where members come and go all the time (lib/in-flight-list.ts says
// why): it must behave as one for what its owners do.

describe('InFlightList', () => {
  it('adds, finds, tells and deletes members as a Set does', () => {
    const list = new InFlightList<{ key: string }>();
    const a = { key: 'a' };
    const b = { key: 'b' };
    list.add(a);
    list.add(b);
    assert.equal(list.size, 2);
    assert.equal(list.has(a), true);
    assert.equal(list.find((m) => m.key === 'b'), b);
    assert.equal(list.find((m) => m.key === 'c'), undefined);
    assert.equal(list.delete(a), true);
    assert.equal(list.delete(a), false, 'a member is deleted once');
    assert.equal(list.has(a), false);
    assert.deepEqual([...list], [b]);
    list.clear();
    assert.equal(list.size, 0);
  });

  it('compares strings by value, as a Set of strings does', () => {
    const list = new InFlightList<string>();
    list.add(['events'].join(''));
    assert.equal(list.has('events'), true);
    assert.equal(list.delete('events'), true);
    assert.equal(list.size, 0);
  });

  it('visits every member once in a loop that deletes them (a sender closing its requests)', () => {
    const list = new InFlightList<number>();
    for (let n = 0; n < 5; n++) list.add(n);
    const visited: number[] = [];
    for (const n of list) {
      visited.push(n);
      list.delete(n);
      if (n === 0) list.add(99);
    }
    assert.deepEqual(visited, [0, 1, 2, 3, 4], 'the loop sees the members as they were when it began');
    assert.deepEqual([...list], [99]);
  });
});
