"""Text reports of carts."""

from shop.cart import Cart
from shop.money import Money, total


def line_for(item):
    cost = item.cost()
    return item.name.ljust(20) + str(item.quantity).rjust(4) + str(cost).rjust(14)


def report(cart):
    lines = [line_for(item) for item in cart.items]
    amount = cart.subtotal()
    lines.append("total".ljust(24) + str(amount).rjust(14))
    return "\n".join(lines)


def report_discounted(cart, percent):
    lines = [line_for(item) for item in cart.items]
    amount = cart.discount(percent)
    lines.append("discounted".ljust(24) + str(amount).rjust(14))
    return "\n".join(lines)


def demo():
    cart = Cart("EUR")
    cart.add("apple", 120, 3)
    cart.add("bread", 250)
    cart.add("cheese", 480, 2)
    print(report(cart))
    print(report_discounted(cart, 10))
    amounts = [item.cost() for item in cart.items]
    print(total(amounts, "EUR"))
    return cart
