class Switches {
    String name(int day, Object o) {
        switch (day) {
            case 1:
            case 7:
                kind = "weekend";
                break;
            case 2:
                log(day);
            default:
                kind = "weekday";
        }
        switch (day) {
            case 1, 7 -> kind = "weekend";
            case 3 -> { log(day); }
            default -> throw new IllegalStateException();
        }
        int len = switch (kind) {
            case "weekend" -> 2;
            default -> {
                int k = day * 2;
                yield k;
            }
        };
        return switch (o) {
            case String s when s.isEmpty() -> "empty";
            case Point(int x, int y) -> "point " + x;
            case null, default -> "other";
        };
    }
}
