import { PageHeader } from '../components/ui';

/** Placeholder: this page is being built. */
export function OverviewPage() {
  return <PageHeader title="Overview" />;
}
