import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function VehicleDetailPage() {
  return <PageHeader title="VehicleDetail" />;
}
