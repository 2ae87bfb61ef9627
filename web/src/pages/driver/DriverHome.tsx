import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function DriverHomePage() {
  return <PageHeader title="DriverHome" />;
}
