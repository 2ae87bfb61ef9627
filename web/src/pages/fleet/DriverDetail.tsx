import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function DriverDetailPage() {
  return <PageHeader title="DriverDetail" />;
}
