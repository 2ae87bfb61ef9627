/** The alerts feed's filters: status, priority, category, type and driver, and the order; a reset when any is set. */
import { label } from '../../lib/glossary';
import type { FormEvent } from 'react';
import { Button, SelectField } from '../../components/ui';
import { ALERT_TYPES, CATEGORIES, DEFAULT_FILTERS, HOS_APPROACHING_LIMIT, PRIORITIES, SORT_CHOICES, STATUS_FILTERS, kindLabel, type AlertFilters } from '../../lib/alert-feed';
import { isFiltered } from '../../lib/alert-list';

const PRIORITY_OPTIONS = [{ value: '', label: 'All priorities' }, ...PRIORITIES.map((p) => ({ value: p, label: label('priority', p) }))];
const CATEGORY_OPTIONS = [{ value: '', label: 'All categories' }, ...CATEGORIES.map((c) => ({ value: c, label: label('category', c) }))];
const TYPE_OPTIONS = [{ value: '', label: 'All types' }, { value: HOS_APPROACHING_LIMIT, label: 'Approaching an HOS limit (any)' }, ...ALERT_TYPES.map((t) => ({ value: t, label: kindLabel(t) }))];

export function AlertFilterForm({ filters, driverOptions, onChange }: { filters: AlertFilters; driverOptions: Array<{ value: string; label: string }>; onChange: (filters: AlertFilters) => void }) {
  const set = (k: keyof AlertFilters) => (e: { target: { value: string } }) => onChange({ ...filters, [k]: e.target.value });
  return (
    <form className="alerts-filters card" aria-label="Filter alerts" onSubmit={(e: FormEvent) => e.preventDefault()}>
      <SelectField label="Status" value={filters.status} onChange={set('status')} options={STATUS_FILTERS} />
      <SelectField label="Priority" value={filters.priority} onChange={set('priority')} options={PRIORITY_OPTIONS} />
      <SelectField label="Category" value={filters.category} onChange={set('category')} options={CATEGORY_OPTIONS} />
      <SelectField label="Type" value={filters.type} onChange={set('type')} options={TYPE_OPTIONS} />
      <SelectField label="Driver" value={filters.driverId} onChange={set('driverId')} options={driverOptions} />
      <SelectField label="Order" value={filters.sort} onChange={set('sort')} options={SORT_CHOICES} />
      {isFiltered(filters) && (
        <Button variant="link" onClick={() => onChange(DEFAULT_FILTERS)}>
          Reset filters
        </Button>
      )}
    </form>
  );
}
