import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function PlanRoutePage() {
  return <PageHeader title="PlanRoute" />;
}
