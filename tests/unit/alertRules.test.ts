import { describe, expect, it } from 'vitest';
import { categoryChoices } from '../../src/domain/alertRules';

describe('the categories the alert editor offers', () => {
  const categories = [
    { mall_id: 1, name: 'F&B' },
    { mall_id: 1, name: 'Books' },
    { mall_id: 2, name: 'F&B' },
    { mall_id: 2, name: 'Toys' },
  ];

  it('lists those of the chosen malls once, by name, and keeps a rule’s own that none has any more', () => {
    expect(categoryChoices(categories, [1, 2], null)).toEqual(['Books', 'F&B', 'Toys']);
    expect(categoryChoices(categories, [2], null)).toEqual(['F&B', 'Toys']);
    expect(categoryChoices(categories, [2], 'Jewellery')).toEqual(['F&B', 'Jewellery', 'Toys']);
    expect(categoryChoices(categories, [], null)).toEqual([]);
  });
});
