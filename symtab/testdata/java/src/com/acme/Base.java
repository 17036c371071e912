package com.acme;

public class Base {
    /** Writes the object. */
    protected void save() {}
}
