// The delete confirmation (spec §2): 'Delete Prospect', the warning, Cancel and Delete.
import { TrashIcon } from "../../design/icons";
import { ConfirmModal } from "../../design/modal";

export function ProspectDeleteDialog({
  name,
  busy,
  onCancel,
  onConfirm,
}: {
  name: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <ConfirmModal title="Delete Prospect" tone="danger" icon={<TrashIcon />} busy={busy} onClose={onCancel} confirmLabel="Delete" onConfirm={onConfirm}>
      <p>Are you sure you want to delete this prospect? This action cannot be undone.</p>
      <p className="modal-subject">{name}</p>
    </ConfirmModal>
  );
}
