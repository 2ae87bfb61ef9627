import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function VehiclesPage() {
  return <PageHeader title="Vehicles" />;
}
