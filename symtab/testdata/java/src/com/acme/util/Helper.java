package com.acme.util;

import com.acme.*;

public class Helper {
    public static void help() {}

    public Account owner() { return null; }
}
