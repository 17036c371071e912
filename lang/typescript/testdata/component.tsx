import React, { useState } from "react";

type Props = { title: string; onClose?: () => void };

export const Dialog = ({ title, onClose }: Props) => {
  const [visible, setVisible] = useState<boolean>(true);
  const close = () => {
    setVisible(false);
    onClose?.();
  };
  if (!visible) return null;
  return (
    <Modal title={title} onDismiss={close}>
      <p className="body">{title.toUpperCase()}</p>
    </Modal>
  );
};
