import { describe, expect, it } from 'vitest';
import { MALLS } from '../../server/demo/catalog';
import { demoMalls, LONG_NAME_LENGTH, longName, planWorld } from '../../server/demo/world';

/*
 * The readability fixture (DEMO_OUTLETS_PER_MALL=300, DEMO_LONG_NAMES=true): every mall with 300 outlets whose
 * names, and whose payment methods' names, are 60 characters long and still told apart.
 */

const endByMall = new Map(MALLS.map((mall) => [mall.key, 20_780]));

describe('the long names and many outlets fixture', () => {
  it('writes a name out to exactly 60 characters, keeping the name it starts from', () => {
    for (const name of ['VISA', 'Kopi & Toast', 'A name that is already longer than sixty characters, by far, yes']) {
      const long = longName(name);
      expect(long).toHaveLength(LONG_NAME_LENGTH);
      expect(long.startsWith(name.slice(0, LONG_NAME_LENGTH))).toBe(true);
    }
  });

  it('plans 300 outlets a mall, each named in 60 characters, names unique within a client', () => {
    const world = planWorld(7, endByMall, { outletsPerMall: 300, longNames: true });
    for (const mall of MALLS) {
      const outlets = world.outlets.filter((outlet) => outlet.mall.key === mall.key);
      expect(outlets).toHaveLength(300);
      expect(outlets.every((outlet) => outlet.name.length === LONG_NAME_LENGTH)).toBe(true);
      const methods = outlets[0]?.mall.paymentMethods.map(([method]) => method) ?? [];
      // '' and NONE keep their meaning (§9: summed into OTHERS); every other method is written out.
      expect(methods.filter((method) => method !== '' && method !== 'NONE').every((m) => m.length === 60)).toBe(true);
      expect(outlets[0]?.mall.cardMethods.every((method) => methods.includes(method))).toBe(true);
    }
    for (const client of new Set(world.outlets.map((outlet) => outlet.client))) {
      const names = world.outlets.filter((outlet) => outlet.client === client).map((outlet) => outlet.name);
      expect(new Set(names).size).toBe(names.length);
    }
  });

  it('leaves the demo world as it was without the option', () => {
    const world = planWorld(7, endByMall);
    expect(world.longNames).toBe(false);
    expect(world.outlets.some((outlet) => outlet.name.length === LONG_NAME_LENGTH)).toBe(false);
  });

  it('plans a regional operator: each mall ten times, outlet codes unique, names unique within a client', () => {
    const malls = demoMalls(10);
    const world = planWorld(7, new Map(malls.map((mall) => [mall.key, 20_780])), {
      mallCopies: 10,
      outletsPerMall: 100,
    });
    expect(world.malls).toHaveLength(30);
    expect(new Set(world.malls.map((mall) => mall.name)).size).toBe(30);
    expect(world.outlets).toHaveLength(3_000);
    expect(new Set(world.outlets.map((outlet) => outlet.code)).size).toBe(3_000);
    for (const client of new Set(world.outlets.map((outlet) => outlet.client))) {
      const names = world.outlets.filter((outlet) => outlet.client === client).map((outlet) => outlet.name);
      expect(new Set(names).size).toBe(names.length);
    }
    // The first copy is the catalog's own mall.
    expect(world.malls.slice(0, MALLS.length)).toEqual(MALLS);
  });
});
