import { describe, expect, it } from 'vitest';
import { changeListQuery, isNarrowed, listQueryString, readListQuery } from './list-query';

describe('list state in the address', () => {
  it('reads page, search and the known filters; a bad page is page 1', () => {
    expect(readListQuery(new URLSearchParams('q=dana&status=ACTIVE&page=3&other=x'), ['status'])).toEqual({ page: 3, search: 'dana', filters: { status: 'ACTIVE' } });
    expect(readListQuery(new URLSearchParams('page=-2'), ['status', 'type'])).toEqual({ page: 1, search: '', filters: { status: '', type: '' } });
    expect(readListQuery(new URLSearchParams('page=1.5'), []).page).toBe(1);
  });

  it('writes only what differs from the default', () => {
    expect(listQueryString({ page: 1, search: '', filters: { status: '' } })).toBe('');
    expect(listQueryString({ page: 2, search: 'big rig', filters: { status: 'ACTIVE' } })).toBe('q=big+rig&status=ACTIVE&page=2');
  });

  it('goes back to page 1 when the search or a filter changes, not when the page does', () => {
    const q = { page: 4, search: 'a', filters: { status: '' } };
    expect(changeListQuery(q, { page: 5 })).toEqual({ page: 5, search: 'a', filters: { status: '' } });
    expect(changeListQuery(q, { search: 'ab' }).page).toBe(1);
    expect(changeListQuery(q, { filters: { status: 'INACTIVE' } })).toEqual({ page: 1, search: 'a', filters: { status: 'INACTIVE' } });
    expect(changeListQuery(q, { search: 'a' }).page).toBe(4);
    expect(changeListQuery(q, { page: 0 }).page).toBe(1);
  });

  it('knows a narrowed list from a whole one', () => {
    expect(isNarrowed({ page: 3, search: '', filters: { status: '' } })).toBe(false);
    expect(isNarrowed({ page: 1, search: 'x', filters: {} })).toBe(true);
    expect(isNarrowed({ page: 1, search: '', filters: { type: 'YARD' } })).toBe(true);
  });
});
