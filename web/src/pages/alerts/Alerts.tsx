import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function AlertsPage() {
  return <PageHeader title="Alerts" />;
}
