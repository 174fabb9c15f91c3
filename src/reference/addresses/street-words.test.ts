import { describe, expect, it } from 'vitest';
import { searchTiers } from '../search/search-tiers.ts';
import { streetWords } from './street-words.ts';

// House and box numbers' words, sorted: "12", "12a", "a" (box A), "bis".
const houseTerms = ['12', '12a', '16', 'a', 'bis'];
const words = (tier: ReturnType<typeof streetWords>) => tier.map(({ word, prefix }) => word + (prefix ? '*' : ''));

describe('streetWords', () => {
  it('keeps the words no house or box number holds', () => {
    const [whole] = searchTiers(['rue', 'jan', 'van', 'de']);
    expect(words(streetWords(whole!, houseTerms))).toEqual(['rue', 'jan', 'van', 'de']);
  });

  it('leaves out a word a house or box number is, which may sit in the address alone', () => {
    const [whole] = searchTiers(['kerkstraat', '16', 'a', 'gent']);
    expect(words(streetWords(whole!, houseTerms))).toEqual(['kerkstraat', 'gent']);
  });

  it('leaves out a prefix some house word begins, and any prefix of one or two letters', () => {
    const tiers = searchTiers(['wetstraat', '1']);
    // Tier 2: "1" a prefix of "12" and "16".
    expect(words(streetWords(tiers[1]!, houseTerms))).toEqual(['wetstraat']);
    const typing = searchTiers(['rue', 'jan', 'van', 'de']);
    expect(words(streetWords(typing[1]!, houseTerms))).toEqual(['rue', 'jan', 'van']);
    expect(words(streetWords(searchTiers(['bi'])[0]!, houseTerms))).toEqual(['bi']);
    expect(words(streetWords(searchTiers(['bi'])[1]!, houseTerms))).toEqual([]);
    expect(words(streetWords(searchTiers(['bruss'])[1]!, houseTerms))).toEqual(['bruss*']);
  });

  it('narrows nothing when every word could be a number', () => {
    expect(streetWords(searchTiers(['12', 'a'])[0]!, houseTerms)).toEqual([]);
  });
});
