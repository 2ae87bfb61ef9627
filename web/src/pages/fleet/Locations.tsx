import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function LocationsPage() {
  return <PageHeader title="Locations" />;
}
