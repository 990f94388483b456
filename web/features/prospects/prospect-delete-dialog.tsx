// The delete confirmation (spec §2): 'Delete Prospect', the warning, Cancel and Delete.
import { useRef } from "react";
import { TrashIcon } from "../../design/icons";
import { Button, buttonClass } from "../../design/button";
import { Modal } from "../../design/modal";

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
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      title="Delete Prospect"
      tone="danger"
      icon={<TrashIcon />}
      busy={busy}
      onClose={onCancel}
      initialFocus={cancel}
      footer={
        <>
          <button ref={cancel} type="button" className={buttonClass("secondary")} onClick={onCancel} disabled={busy}>
            Cancel
          </button>
          <Button variant="danger" onClick={onConfirm} busy={busy}>
            Delete
          </Button>
        </>
      }
    >
      <p>Are you sure you want to delete this prospect? This action cannot be undone.</p>
      <p className="modal-subject">{name}</p>
    </Modal>
  );
}
