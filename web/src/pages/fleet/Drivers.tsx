import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function DriversPage() {
  return <PageHeader title="Drivers" />;
}
