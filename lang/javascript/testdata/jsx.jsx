export function List({ items, onSelect }) {
  const [open, setOpen] = useState(false);
  return (
    <ul className="list" onClick={() => setOpen(!open)}>
      {items.map((item) => (
        <Item key={item.id} {...item} selected={open} onClick={() => onSelect(item)} />
      ))}
      <UI.Footer>{open ? "open" : "closed"}</UI.Footer>
    </ul>
  );
}
