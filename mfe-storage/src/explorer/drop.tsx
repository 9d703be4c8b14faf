import { useState, type DragEvent } from 'react';
import { useToast } from '@dash/shell-sdk';
import { Messages } from '@dash/contracts';
import { dragHasFiles, droppedFiles } from './browser';
import { useExplorer } from './controller';
import { UploadIcon } from './icons';

/** Makes an element a drop target that uploads into column `columnIndex`, with the overlay while files are over it. */
export function useDropTarget(columnIndex: number) {
  const { actions } = useExplorer();
  const toast = useToast();
  const [over, setOver] = useState(false);

  const accept = (event: DragEvent) => {
    if (!dragHasFiles(event.dataTransfer)) return false;
    event.preventDefault();
    return true;
  };

  return {
    overlay: over && (
      <div className="sx-drop-overlay" data-testid="explorer-drop-overlay">
        <UploadIcon />
        <span>{Messages.dropToUpload}</span>
      </div>
    ),
    dropProps: {
      onDragEnter: (event: DragEvent) => {
        if (accept(event)) setOver(true);
      },
      onDragOver: (event: DragEvent) => {
        if (!accept(event)) return;
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      },
      onDragLeave: (event: DragEvent) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      },
      onDrop: (event: DragEvent) => {
        if (!accept(event)) return;
        setOver(false);
        // The drop's items are read before the handler returns; the folders are walked afterwards.
        droppedFiles(event.dataTransfer).then(
          (sources) => actions.upload(sources, columnIndex),
          () => toast('error', Messages.uploadFailed),
        );
      },
    },
  };
}
