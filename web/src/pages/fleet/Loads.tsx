import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function LoadsPage() {
  return <PageHeader title="Loads" />;
}
