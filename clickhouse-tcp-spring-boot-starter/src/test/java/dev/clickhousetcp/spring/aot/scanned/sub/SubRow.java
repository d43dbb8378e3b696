package dev.clickhousetcp.spring.aot.scanned.sub;

/** A bean in a sub-package of a scanned package. */
public class SubRow {

    private String name;

    public String getName() {
        return this.name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
